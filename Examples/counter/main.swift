import Foundation

// `swift run counter` for the terminal session,
// `swift run counter --script "+ + - undo"` for a scripted run.
let status = await Shell.run(Array(CommandLine.arguments.dropFirst()))
exit(status)
