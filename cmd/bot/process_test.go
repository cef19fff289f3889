package main

import (
	"os"
	"path/filepath"
	"testing"
)

// botChild, when set, makes this test binary run main() as the bot
// binary does, with its arguments: for tests of what only a process shows
// (signals, exit codes seen by a shell script).
const botChild = "KEPBOT_TEST_AS_BOT"

// botOnPath writes a `bot` command into a new folder that runs this test
// binary as the bot (its main, its flags, its signal handling) and
// returns the folder, to put first on PATH.
func botOnPath(t *testing.T) string {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	script := "#!/bin/sh\n" + botChild + "=1 exec '" + exe + "' \"$@\"\n"
	if err := os.WriteFile(filepath.Join(dir, "bot"), []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	return dir
}
