// The notes server: a JSON HTTP API wired by Patchbay. One build serves every
// environment; the manifest of the one chosen decides the implementations.
//
//     swift run --package-path Examples/NotesServer notes-server                 # development: in memory
//     PATCHBAY_ENV=production NOTES_DB_PASSWORD=... swift run --package-path Examples/NotesServer notes-server
import Foundation
import NotesServerKit

exit(await NotesServerMain.run(Array(CommandLine.arguments.dropFirst())))
