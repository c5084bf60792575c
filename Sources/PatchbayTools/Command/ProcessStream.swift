import Foundation

// Writing to the process's standard output and error without trapping.
//
// FileHandle's `write(_:)` traps when the write fails (a closed descriptor,
// a full disk, a pipe whose reader is gone while SIGPIPE is ignored), and
// `write(contentsOf:)`, which throws instead, needs macOS 10.15.4 where the
// package supports 10.15. So the writer calls write(2), as both do, and keeps
// the first failure for the command to report and exit 2 on. SIGPIPE's
// disposition is left as the process has it: the command runs inside apps,
// whose own choice it is; with the default, a closed pipe ends the process
// as it ends `cat`.

/// One of the process's two output streams, written with write(2); after a
/// failed write it writes nothing more (what follows would be incomplete,
/// and a failing descriptor could be reused by a file opened later).
final class ProcessStream {
    /// `standard output` or `standard error`, for the message.
    let name: String
    private let descriptor: Int32
    /// The first failure: the errno of the write that failed.
    private(set) var failure: Int32?

    init(name: String, descriptor: Int32) {
        self.name = name
        self.descriptor = descriptor
    }

    /// Writes `text` whole, retrying after a signal and after a partial write.
    func write(_ text: String) {
        guard failure == nil else { return }
        var text = text
        text.withUTF8 { buffer in
            var offset = 0
            while offset < buffer.count {
                let written = systemWrite(descriptor, buffer.baseAddress! + offset, buffer.count - offset)
                if written > 0 {
                    offset += written
                } else if written < 0 && errno == EINTR {
                    continue
                } else {
                    failure = written < 0 ? errno : EIO  // 0 bytes for a non-empty write: no progress is possible
                    return
                }
            }
        }
    }

    /// What went wrong, for the command's last message: `standard output: No space left on device`.
    var failureDescription: String? {
        failure.map { "\(name): \(String(cString: strerror($0)))" }
    }
}

/// write(2), named apart so that the method `write(_:)` does not hide it.
private func systemWrite(_ descriptor: Int32, _ bytes: UnsafePointer<UInt8>, _ count: Int) -> Int {
    write(descriptor, bytes, count)
}
