package secret

import (
	"fmt"
	"io"
	"os"
	"strings"
)

// maxFileBytes caps a secret file; a token is far smaller.
const maxFileBytes = 64 << 10

// ReadFile reads a secret from a mounted file, trimmed. The error never
// holds the file's content.
func ReadFile(path string) (Secret, error) {
	f, err := os.Open(path)
	if err != nil {
		return Secret{}, fmt.Errorf("cannot read the secret file %s: %w", path, err)
	}
	defer f.Close()
	b, err := io.ReadAll(io.LimitReader(f, maxFileBytes+1))
	if err != nil {
		return Secret{}, fmt.Errorf("cannot read the secret file %s: %w", path, err)
	}
	if len(b) > maxFileBytes {
		return Secret{}, fmt.Errorf("the secret file %s is larger than %d KiB; it should hold only the token", path, maxFileBytes>>10)
	}
	s := strings.TrimSpace(string(b))
	if s == "" {
		return Secret{}, fmt.Errorf("the secret file %s is empty", path)
	}
	return New(s), nil
}
