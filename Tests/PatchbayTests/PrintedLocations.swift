// The places the tools print, as a reader meets them: each must be a file a
// terminal and an editor can open from where the tool ran, never a #fileID
// (`Tour/main.swift`) nor a word (`catalog`).
import Foundation

/// Every file a tool's `output` places something in: each line's leading
/// `file:line:column`, each GitHub command's `file=`, each `declared at` and
/// `registered at` in a message, and each `registeredAt` and `declaredAt` of
/// a catalog description.
func printedLocations(in output: String) -> [String] {
    let patterns = [
        #"^(?:\S.*?):\d+:\d+: (?:error|warning|note):"#,
        #"^::(?:error|warning|notice) file=([^,]+),"#,
        #"(?:declared|registered) at ([^\s,()]+?):\d+"#,
        #""(?:registeredAt|declaredAt)" : "([^"]+?):\d+(?::\d+)?""#,
    ].map { try! NSRegularExpression(pattern: $0, options: [.anchorsMatchLines]) }
    var found: [String] = []
    let text = output as NSString
    for (index, pattern) in patterns.enumerated() {
        for match in pattern.matches(in: output, range: NSRange(location: 0, length: text.length)) {
            if index == 0 {
                // The file is what comes before `:line:column: severity:`.
                let line = text.substring(with: match.range)
                let head = line.replacingOccurrences(
                    of: #":\d+:\d+: (?:error|warning|note):$"#, with: "", options: .regularExpression)
                found.append(head)
            } else {
                found.append(text.substring(with: match.range(at: 1)))
            }
        }
    }
    return found
}

/// The locations of `output` (see ``printedLocations(in:)``) that are not a
/// file when read from `folder`.
func unopenableLocations(in output: String, from folder: URL) -> [String] {
    printedLocations(in: output).filter { file in
        let url = file.hasPrefix("/") ? URL(fileURLWithPath: file) : folder.appendingPathComponent(file)
        var isDirectory: ObjCBool = false
        return !FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory) || isDirectory.boolValue
    }
}
