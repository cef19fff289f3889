package manifest

import (
	"bytes"
	"strconv"
	"strings"
)

// `kubectl version` output pasted among manifests names the cluster's
// release, which is what a scan is against. It comes in three forms:
//
//	Client Version: v1.29.1                  (plain; kubectl 1.28 and later,
//	Kustomize Version: v5.0.4                 or --short before)
//	Server Version: v1.28.3
//
//	Server Version: version.Info{Major:"1", Minor:"22", GitVersion:"v1.22.3", ...}
//
//	serverVersion:                           (-o yaml; -o json has the same keys)
//	  gitVersion: v1.28.3
//	  major: "1"
//	  minor: "28"
//
// Managed clusters say minor "28+"; that is 28. Only a document that is
// not an object is looked at, and only digits are kept from it.

// kubectlVersion reports whether document text is `kubectl version`
// output, and the server's release in it ("1.28"; "" when it names no
// server, as when the server could not be reached).
func kubectlVersion(text []byte) (server, build string, ok bool) {
	for rest := text; len(rest) > 0; {
		var b []byte
		if i := bytes.IndexByte(rest, '\n'); i >= 0 {
			b, rest = rest[:i], rest[i+1:]
		} else {
			b, rest = rest, nil
		}
		b = bytes.TrimLeft(b, " \t{\"")
		switch {
		case bytes.HasPrefix(b, []byte("Client Version:")), bytes.HasPrefix(b, []byte("Kustomize Version:")):
			ok = true
		case bytes.HasPrefix(b, []byte("Server Version:")):
			ok = true
			if v, bld := serverLine(b); v != "" {
				server, build = v, bld
			}
		case bytes.HasPrefix(b, []byte("clientVersion\"")), bytes.HasPrefix(b, []byte("clientVersion:")),
			bytes.HasPrefix(b, []byte("serverVersion\"")), bytes.HasPrefix(b, []byte("serverVersion:")):
			ok = true
		}
	}
	if !ok {
		return "", "", false
	}
	if server == "" {
		server, build = structuredVersion(text)
	}
	return server, build, true
}

// serverLine reads a "Server Version:" line: v1.28.3, or
// version.Info{Major:"1", Minor:"22+", GitVersion:"v1.22.3-eks", ...}: the
// release (by major and minor, else the gitVersion) and the gitVersion as
// written.
func serverLine(b []byte) (server, build string) {
	b = bytes.TrimSpace(b[len("Server Version:"):])
	if !bytes.HasPrefix(b, []byte("version.Info{")) {
		if i := bytes.IndexAny(b, " \t"); i >= 0 {
			b = b[:i]
		}
		return gitVersion(b), string(b)
	}
	build = string(fieldValue(b, "GitVersion"))
	if v := release(fieldValue(b, "Major"), fieldValue(b, "Minor")); v != "" {
		return v, build
	}
	return gitVersion([]byte(build)), build
}

// structuredVersion reads major and minor (or gitVersion) of the
// serverVersion of -o yaml or -o json output.
func structuredVersion(text []byte) (server, build string) {
	i := bytes.Index(text, []byte("serverVersion"))
	if i < 0 {
		return "", ""
	}
	sv := text[i+len("serverVersion"):]
	for _, other := range []string{"clientVersion", "kustomizeVersion"} {
		if j := bytes.Index(sv, []byte(other)); j >= 0 {
			sv = sv[:j]
		}
	}
	build = string(fieldValue(sv, "gitVersion"))
	if v := release(fieldValue(sv, "major"), fieldValue(sv, "minor")); v != "" {
		return v, build
	}
	return gitVersion([]byte(build)), build
}

// fieldValue finds key (a whole word, maybe quoted) followed by ':' and
// returns the value after it, without quotes: letters, digits, and
// . + - only.
func fieldValue(b []byte, key string) []byte {
	for from := 0; ; {
		i := bytes.Index(b[from:], []byte(key))
		if i < 0 {
			return nil
		}
		i += from
		from = i + len(key)
		if i > 0 && isWordByte(b[i-1]) {
			continue
		}
		j := i + len(key)
		if j < len(b) && b[j] == '"' {
			j++
		}
		for j < len(b) && b[j] == ' ' {
			j++
		}
		if j == len(b) || b[j] != ':' {
			continue
		}
		j++
		for j < len(b) && (b[j] == ' ' || b[j] == '"' || b[j] == '\'') {
			j++
		}
		k := j
		for k < len(b) && (isWordByte(b[k]) || b[k] == '.' || b[k] == '+' || b[k] == '-') {
			k++
		}
		return b[j:k]
	}
}

func isWordByte(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '_'
}

// release makes "1.28" of major "1" and minor "28" or "28+".
func release(major, minor []byte) string {
	ma, mi := digits(major), digits(minor)
	if ma == "" || mi == "" {
		return ""
	}
	return ma + "." + mi
}

// gitVersion makes "1.28" of "v1.28.3" (or "v1.28.3-gke.100", "1.28").
func gitVersion(b []byte) string {
	b = bytes.TrimPrefix(b, []byte("v"))
	i := bytes.IndexByte(b, '.')
	if i < 0 {
		return ""
	}
	return release(b[:i], b[i+1:])
}

// digits returns the number b starts with (at most 3 digits), without
// leading zeros; "" when it does not start with one.
func digits(b []byte) string {
	n := 0
	for n < len(b) && n < 4 && b[n] >= '0' && b[n] <= '9' {
		n++
	}
	if n == 0 || n > 3 {
		return ""
	}
	v, _ := strconv.Atoi(string(b[:n]))
	return strconv.Itoa(v)
}

// kubectlKeys start the lines of `kubectl version` output at column 0:
// the plain form's and the -o yaml form's.
var kubectlKeys = [][]byte{[]byte("Client Version:"), []byte("Kustomize Version:"), []byte("Server Version:"),
	[]byte("clientVersion:"), []byte("kustomizeVersion:"), []byte("serverVersion:")}

// kubectlLine reports whether line b starts `kubectl version` output.
func kubectlLine(b []byte) bool {
	if len(b) == 0 || !strings.ContainsRune("CKScks", rune(b[0])) {
		return false
	}
	for _, k := range kubectlKeys {
		if bytes.HasPrefix(b, k) {
			return true
		}
	}
	return false
}

// otherDocument reports whether line b, of a document with content so
// far, starts another document though no "---" says so: `kubectl version`
// output piped before or after manifests (kubectl version | cat -
// app.yaml) begins at its first line when what came before may hold an
// object, and ends at a line that starts a key at column 0 (apiVersion:,
// {); a JSON document (kubectl version -o json) ends where a YAML key
// stands at column 0.
func (s *stream) otherDocument(b []byte) bool {
	if len(b) == 0 || b[0] == ' ' || b[0] == '\t' || b[0] == '#' {
		return false
	}
	switch {
	case kubectlLine(b):
		if !s.kubectl && !mayHoldObject(s.buf) {
			s.kubectl = true // a prompt or a warning before it: one document
			return false
		}
		return !s.kubectl
	case s.kubectl:
		return startsKey(b) || b[0] == '{' || b[0] == '['
	}
	return s.json && startsKey(b)
}

// startsKey reports whether b starts with a block mapping key at column
// 0: a word followed by ':' and a space or the line's end.
func startsKey(b []byte) bool {
	i := 0
	for i < len(b) && (isWordByte(b[i]) || i > 0 && (b[i] == '-' || b[i] == '.' || b[i] == '/')) {
		i++
	}
	return i > 0 && isLetter(b[0]) && i < len(b) && b[i] == ':' && (i+1 == len(b) || b[i+1] == ' ')
}

func isLetter(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }

// mayHoldObject reports whether a document that did not parse could hold
// an object (it names an apiVersion or a kind): then it is a problem even
// when it reads as `kubectl version` output.
func mayHoldObject(text []byte) bool {
	return bytes.Contains(text, []byte("apiVersion")) || bytes.Contains(text, []byte("kind"))
}
