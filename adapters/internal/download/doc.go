// Package download holds the guard the chat adapters download the file
// attached to a scan through: the one place that decides which hosts a
// download may go to (https on the platform's own file hosts, port 443, no
// user info; or the configured API base's host, for tests and proxies),
// follows redirects only within them, bounds a download in time and in
// bytes (the declared size, Content-Length, and a read capped at one byte
// more than the most), and takes only text (valid UTF-8 without NUL
// bytes, a byte order mark stripped).
//
// A refused or failed download is an *Error: a short reason for logs and
// metrics, and a sentence for the person. Neither holds the file's URL
// (which is signed, or gets a bot token), its name or its content.
// Sentences that name the platform or say what to do on it come from the
// platform's Words; those that do not are the same on every platform and
// live here.
//
// Only the adapters import it (it sits under adapters/internal, which Go
// shows to adapters/... and to nothing else). Each adapter keeps what is
// its own: Slack asks files.info, sends its bot token and knows its
// sign-in page; Discord reads discordgo's attachments. Adapters never
// import each other; what they share about downloads is here.
//
// It imports knowledge.
package download
