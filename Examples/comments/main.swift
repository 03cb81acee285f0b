import Foundation

// `swift run comments` for the terminal session,
// `swift run comments --script "refresh; list; open 1; post Nice"` for a scripted run.
let status = await CommentsShell.run(Array(CommandLine.arguments.dropFirst()))
exit(status)
