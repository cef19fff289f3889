package apilifecycle

import (
	"bytes"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/kepbot/kepbot/knowledge"
	"github.com/kepbot/kepbot/knowledge/internal/lazyre"
)

// File names inside a group/version folder.
const (
	RegisterFile = "register.go"
	MarkersFile  = "zz_generated.prerelease-lifecycle.go"
)

// MaxFileSize is the largest register.go or markers file read. The real
// ones are under 5 KB and 60 KB.
const MaxFileSize = 4 << 20

// Errors the parse functions return (wrapped, with a line number where
// there is one); test with errors.Is.
var (
	ErrEmpty    = errors.New("the file is empty")
	ErrTooLarge = fmt.Errorf("the file is larger than %d MiB; a register.go or %s is a few KiB", MaxFileSize>>20, MarkersFile)
	ErrNotText  = errors.New("the file is not UTF-8 text (binary data?); expected Go source")
	ErrNotGo    = errors.New("the file has no package clause; expected Go source")
	ErrNoGroup  = errors.New(`no API group found; expected const GroupName = "apps" or SchemeGroupVersion = schema.GroupVersion{Group: ...}`)
	ErrNoKinds  = errors.New("no kinds registered; expected scheme.AddKnownTypes(SchemeGroupVersion, &Kind{}, ...)")
	ErrNoMarker = errors.New("no APILifecycle method found; expected func (in *Kind) APILifecycleIntroduced() (major, minor int) { return 1, 20 }")
	ErrBadValue = errors.New("a value is not what prerelease-lifecycle-gen writes")
)

// Markers are the lifecycle markers of one type: a zero Version or a nil
// Replacement where the file has no such method.
type Markers struct {
	Introduced  knowledge.Version `json:"introduced,omitempty"`
	Deprecated  knowledge.Version `json:"deprecated,omitempty"`
	Removed     knowledge.Version `json:"removed,omitempty"`
	Replacement *knowledge.APIRef `json:"replacement,omitempty"`
}

// IsZero reports whether m holds no marker.
func (m Markers) IsZero() bool {
	return m.Introduced.IsZero() && m.Deprecated.IsZero() && m.Removed.IsZero() && m.Replacement == nil
}

// checkText refuses what cannot be a Go source file of the expected size.
func checkText(data []byte) error {
	switch {
	case len(bytes.TrimSpace(data)) == 0:
		return ErrEmpty
	case len(data) > MaxFileSize:
		return ErrTooLarge
	case bytes.IndexByte(data, 0) >= 0 || !utf8.Valid(data):
		return ErrNotText
	}
	return nil
}

// ---- register.go ----

// registerInfo is what a register.go says.
type registerInfo struct {
	group   string
	version string // the SchemeGroupVersion's Version literal; "" when not written as one
	kinds   []string
}

var (
	// var SchemeGroupVersion = schema.GroupVersion{...}: its fields
	schemeGVRe = lazyre.New(`SchemeGroupVersion\s*=\s*(?:[A-Za-z_]\w*\.)?GroupVersion\s*\{([^{}]*)\}`)
	// an argument of AddKnownTypes: &Pod{}, &metav1.Status{}
	knownRe = lazyre.New(`&\s*([A-Za-z_]\w*(?:\.[A-Za-z_]\w*)?)\s*\{\s*\}`)
	// the first argument of AddKnownTypeWithName: SchemeGroupVersion.WithKind("Pod")
	withNameRe = lazyre.New(`^\s*[A-Za-z_][\w.]*\.WithKind\(\s*"([A-Za-z_]\w*)"\s*\)`)
	// an API group: a DNS subdomain
	groupRe = lazyre.New(`^[a-z0-9]([-a-z0-9.]*[a-z0-9])?$`)
)

// ParseRegister reads a group/version package's register.go: the API group
// (the SchemeGroupVersion's Group, a literal or a constant such as
// GroupName; "" is the core group) and the kinds it registers, in the order
// registered, without duplicates. A kind is an &Kind{} argument of
// scheme.AddKnownTypes, or the kind named by AddKnownTypeWithName; types of
// other packages registered alongside (&metav1.Status{}) are not this
// package's kinds and are left out. List kinds are kept.
func ParseRegister(data []byte) (group string, kinds []string, err error) {
	info, err := parseRegister(data)
	if err != nil {
		return "", nil, err
	}
	return info.group, info.kinds, nil
}

func parseRegister(data []byte) (registerInfo, error) {
	if err := checkText(data); err != nil {
		return registerInfo{}, err
	}
	src := stripComments(data)
	if !hasPackage(src) {
		return registerInfo{}, ErrNotGo
	}
	var info registerInfo
	group, ok := "", false
	if m := schemeGVRe().FindSubmatch(src); m != nil {
		gexpr, vexpr := gvFields(string(m[1]))
		if gexpr != "" {
			g, found, err := resolveString(src, gexpr)
			if err != nil {
				return registerInfo{}, fmt.Errorf("SchemeGroupVersion's Group: %w", err)
			}
			group, ok = g, found
		}
		if v, err := strconv.Unquote(vexpr); err == nil {
			info.version = v
		}
	}
	if !ok {
		g, found, err := resolveString(src, "GroupName")
		if err != nil {
			return registerInfo{}, fmt.Errorf("GroupName: %w", err)
		}
		group, ok = g, found
	}
	if !ok {
		return registerInfo{}, ErrNoGroup
	}
	if group != "" && (len(group) > 253 || !groupRe().MatchString(group)) {
		return registerInfo{}, fmt.Errorf("%w: group %q is not a DNS name", ErrBadValue, clip(group))
	}
	if info.version != "" && !knowledge.IsAPIVersionName(info.version) {
		return registerInfo{}, fmt.Errorf("%w: version %q is not an API version like v1beta1", ErrBadValue, clip(info.version))
	}
	info.group = group
	seen := map[string]bool{}
	add := func(k string) {
		if !seen[k] && isKind(k) {
			seen[k] = true
			info.kinds = append(info.kinds, k)
		}
	}
	known, err := callArgs(src, "AddKnownTypes(")
	if err != nil {
		return registerInfo{}, err
	}
	for _, args := range known {
		for _, m := range knownRe().FindAllSubmatch(args, -1) {
			add(string(m[1])) // qualified names fail isKind: another package's type
		}
	}
	named, err := callArgs(src, "AddKnownTypeWithName(")
	if err != nil {
		return registerInfo{}, err
	}
	for _, args := range named {
		if m := withNameRe().FindSubmatch(args); m != nil {
			add(string(m[1]))
		}
	}
	if len(info.kinds) == 0 {
		return registerInfo{}, ErrNoKinds
	}
	return info, nil
}

// gvFields splits the fields of a GroupVersion literal, keyed
// ({Group: GroupName, Version: "v1"}) or not ({GroupName, "v1"}).
func gvFields(body string) (group, version string) {
	parts := strings.Split(body, ",")
	keyed := false
	for _, p := range parts {
		k, v, found := strings.Cut(strings.TrimSpace(p), ":")
		if !found {
			continue
		}
		keyed = true
		switch strings.TrimSpace(k) {
		case "Group":
			group = strings.TrimSpace(v)
		case "Version":
			version = strings.TrimSpace(v)
		}
	}
	if !keyed && len(parts) >= 2 {
		group, version = strings.TrimSpace(parts[0]), strings.TrimSpace(parts[1])
	}
	return group, version
}

// resolveString returns the value of expr: a string literal, or the name
// of a constant (or variable) declared in src with a string literal. found
// is false when src declares no such name.
func resolveString(src []byte, expr string) (s string, found bool, err error) {
	if strings.HasPrefix(expr, `"`) || strings.HasPrefix(expr, "`") {
		s, err := strconv.Unquote(expr)
		if err != nil {
			return "", false, fmt.Errorf("%w: %s is not a string literal", ErrBadValue, clip(expr))
		}
		return s, true, nil
	}
	if !isIdent(expr) {
		return "", false, fmt.Errorf("%w: %s is neither a string nor a constant's name", ErrBadValue, clip(expr))
	}
	for _, line := range bytes.Split(src, []byte("\n")) {
		t := strings.TrimSpace(string(line))
		t = strings.TrimPrefix(strings.TrimPrefix(t, "const "), "var ")
		rest, ok := strings.CutPrefix(strings.TrimSpace(t), expr)
		if !ok {
			continue
		}
		rest = strings.TrimSpace(rest)
		rest = strings.TrimSpace(strings.TrimPrefix(rest, "string"))
		lit, ok := strings.CutPrefix(rest, "=")
		if !ok {
			continue
		}
		lit = strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(lit), ";"))
		s, err := strconv.Unquote(lit)
		if err != nil {
			return "", false, fmt.Errorf("%w: %s = %s is not a string literal", ErrBadValue, expr, clip(lit))
		}
		return s, true, nil
	}
	return "", false, nil
}

// callArgs returns the argument text of every call of fn (written with its
// opening parenthesis, "AddKnownTypes(") in src, up to the matching
// closing parenthesis. src has no comments; string literals are skipped.
// A call never closed is an error: the file is cut short.
func callArgs(src []byte, fn string) ([][]byte, error) {
	var out [][]byte
	for i := 0; i < len(src); {
		j := bytes.Index(src[i:], []byte(fn))
		if j < 0 {
			break
		}
		start := i + j + len(fn)
		if p := i + j - 1; p >= 0 && (isIdentByte(src[p])) {
			i = start // part of a longer name
			continue
		}
		end := matchClose(src, start, '(', ')')
		if end < 0 {
			line := 1 + bytes.Count(src[:start], []byte("\n"))
			return nil, fmt.Errorf("line %d: %w: the call %s...) is never closed (is the file cut short?)", line, ErrBadValue, fn)
		}
		out = append(out, src[start:end])
		i = end + 1
	}
	return out, nil
}

// matchClose returns the index of the close byte that ends the bracket
// opened just before from, skipping string and rune literals; -1 when it
// is never closed.
func matchClose(src []byte, from int, open, close byte) int {
	depth := 1
	for i := from; i < len(src); i++ {
		switch c := src[i]; c {
		case '"', '\'', '`':
			i = skipLiteral(src, i)
		case open:
			depth++
		case close:
			depth--
			if depth == 0 {
				return i
			}
		}
	}
	return -1
}

// skipLiteral returns the index of the last byte of the string or rune
// literal that starts at i (the end of src when it never closes).
func skipLiteral(src []byte, i int) int {
	q := src[i]
	for j := i + 1; j < len(src); j++ {
		switch src[j] {
		case '\\':
			if q != '`' {
				j++
			}
		case '\n':
			if q != '`' {
				return j // an unclosed literal ends at the line
			}
		case q:
			return j
		}
	}
	return len(src) - 1
}

// stripComments returns src with its // and /* */ comments blanked out
// (newlines kept, so line numbers stay), string literals untouched.
func stripComments(src []byte) []byte {
	out := make([]byte, len(src))
	copy(out, src)
	for i := 0; i < len(out); i++ {
		switch c := out[i]; {
		case c == '"' || c == '\'' || c == '`':
			i = skipLiteral(out, i)
		case c == '/' && i+1 < len(out) && out[i+1] == '/':
			for ; i < len(out) && out[i] != '\n'; i++ {
				out[i] = ' '
			}
		case c == '/' && i+1 < len(out) && out[i+1] == '*':
			j := bytes.Index(out[i+2:], []byte("*/"))
			end := len(out)
			if j >= 0 {
				end = i + 2 + j + 2
			}
			for k := i; k < end; k++ {
				if out[k] != '\n' {
					out[k] = ' '
				}
			}
			i = end - 1
		}
	}
	return out
}

// ---- zz_generated.prerelease-lifecycle.go ----

// The methods prerelease-lifecycle-gen writes.
const (
	methodIntroduced  = "APILifecycleIntroduced"
	methodDeprecated  = "APILifecycleDeprecated"
	methodRemoved     = "APILifecycleRemoved"
	methodReplacement = "APILifecycleReplacement"
)

// ParseMarkers reads a zz_generated.prerelease-lifecycle.go: the markers of
// each type, by the receiver's type name (the kind; list types such as
// IngressList have their own). A method whose value is not what the
// generator writes ("return 1, 20", "return schema.GroupVersionKind{Group:
// ..., Version: ..., Kind: ...}") fails the whole file with its line: the
// file is generated, and a bent one cannot be trusted. Other methods are
// passed over. A file without any APILifecycle method is an error.
func ParseMarkers(data []byte) (map[string]Markers, error) {
	if err := checkText(data); err != nil {
		return nil, err
	}
	src := stripComments(data)
	if !hasPackage(src) {
		return nil, ErrNotGo
	}
	out := map[string]Markers{}
	set := map[string]bool{} // kind + "." + method, to refuse a method written twice
	line := 1
	for off := 0; off < len(src); {
		nl := bytes.IndexByte(src[off:], '\n')
		end := len(src)
		if nl >= 0 {
			end = off + nl
		}
		text := src[off:end]
		next := end + 1
		if kind, method, body, ok := methodAt(text); ok && strings.HasPrefix(method, "APILifecycle") {
			// the body runs from its { to the matching }, maybe over lines
			open := off + body
			close := matchClose(src, open+1, '{', '}')
			if close < 0 {
				return nil, fmt.Errorf("line %d: %w: the body of %s.%s is never closed", line, ErrBadValue, kind, method)
			}
			if err := addMarker(out, set, kind, method, string(src[open+1:close])); err != nil {
				return nil, fmt.Errorf("line %d: %s.%s: %w", line, kind, method, err)
			}
			if e := bytes.IndexByte(src[close:], '\n'); e >= 0 {
				next = close + e + 1
			} else {
				next = len(src)
			}
			line += bytes.Count(src[off:min(next, len(src))], []byte("\n"))
			off = next
			continue
		}
		line++
		off = next
	}
	if len(set) == 0 {
		return nil, ErrNoMarker
	}
	return out, nil
}

// methodAt reads a method declaration line, "func (in *Kind) Name() ... {":
// the receiver's type, the method's name, and the offset of the { that
// opens its body.
func methodAt(line []byte) (kind, method string, body int, ok bool) {
	rest, found := bytes.CutPrefix(line, []byte("func ("))
	if !found {
		return "", "", 0, false
	}
	close := bytes.IndexByte(rest, ')')
	if close < 0 {
		return "", "", 0, false
	}
	recv := strings.Fields(string(rest[:close])) // "in *Kind", "*Kind", "in Kind"
	if len(recv) == 0 || len(recv) > 2 {
		return "", "", 0, false
	}
	kind = strings.TrimPrefix(recv[len(recv)-1], "*")
	after := rest[close+1:]
	name := bytes.TrimLeft(after, " \t")
	n := 0
	for n < len(name) && isIdentByte(name[n]) {
		n++
	}
	method = string(name[:n])
	if !isIdent(kind) || method == "" {
		return "", "", 0, false
	}
	b := bytes.IndexByte(name[n:], '{')
	if b < 0 {
		return "", "", 0, false
	}
	body = len("func (") + close + 1 + (len(after) - len(name)) + n + b
	return kind, method, body, true
}

func addMarker(out map[string]Markers, set map[string]bool, kind, method, body string) error {
	expr, ok := strings.CutPrefix(strings.TrimSpace(body), "return")
	if !ok || expr == "" || (expr[0] != ' ' && expr[0] != '\t') {
		return fmt.Errorf("%w: the body is %q, not a return", ErrBadValue, clip(strings.TrimSpace(body)))
	}
	expr = strings.TrimSpace(expr)
	m := out[kind]
	switch method {
	case methodIntroduced, methodDeprecated, methodRemoved:
		v, err := parseRelease(expr)
		if err != nil {
			return err
		}
		switch method {
		case methodIntroduced:
			m.Introduced = v
		case methodDeprecated:
			m.Deprecated = v
		default:
			m.Removed = v
		}
	case methodReplacement:
		r, err := parseGVK(expr)
		if err != nil {
			return err
		}
		m.Replacement = r
	default:
		return nil // a method the generator does not write; passed over
	}
	key := kind + "." + method
	if set[key] {
		return fmt.Errorf("%w: written twice", ErrBadValue)
	}
	set[key] = true
	out[kind] = m
	return nil
}

// parseRelease reads "1, 20" as release 1.20; "0, 0" is no release.
func parseRelease(expr string) (knowledge.Version, error) {
	a, b, ok := strings.Cut(expr, ",")
	if !ok {
		return knowledge.Version{}, fmt.Errorf("%w: %q is not a release like 1, 20", ErrBadValue, clip(expr))
	}
	major, err1 := strconv.Atoi(strings.TrimSpace(a))
	minor, err2 := strconv.Atoi(strings.TrimSpace(b))
	if err1 != nil || err2 != nil || major < 0 || major > 99 || minor < 0 || minor > 9999 {
		return knowledge.Version{}, fmt.Errorf("%w: %q is not a release like 1, 20", ErrBadValue, clip(expr))
	}
	return knowledge.Version{Major: major, Minor: minor}, nil
}

// parseGVK reads schema.GroupVersionKind{Group: "g", Version: "v", Kind:
// "K"}; an empty one is no replacement (nil).
func parseGVK(expr string) (*knowledge.APIRef, error) {
	bad := func(why string) (*knowledge.APIRef, error) {
		return nil, fmt.Errorf("%w: %q %s", ErrBadValue, clip(expr), why)
	}
	open := strings.IndexByte(expr, '{')
	if open < 0 || !strings.HasSuffix(expr, "}") || !strings.HasSuffix(strings.TrimSpace(expr[:open]), "GroupVersionKind") {
		return bad("is not a schema.GroupVersionKind{...}")
	}
	var ref knowledge.APIRef
	fields := splitFields(expr[open+1 : len(expr)-1])
	for _, f := range fields {
		k, v, ok := strings.Cut(f, ":")
		if !ok {
			return bad("has a field without a key")
		}
		s, err := strconv.Unquote(strings.TrimSpace(v))
		if err != nil {
			return bad("has a value that is not a string literal")
		}
		switch strings.TrimSpace(k) {
		case "Group":
			ref.Group = s
		case "Version":
			ref.Version = s
		case "Kind":
			ref.Kind = s
		default:
			return bad("has a field other than Group, Version, Kind")
		}
	}
	if ref == (knowledge.APIRef{}) {
		return nil, nil
	}
	if ref.Group != "" && (len(ref.Group) > 253 || !groupRe().MatchString(ref.Group)) {
		return bad("names a group that is not a DNS name")
	}
	if !knowledge.IsAPIVersionName(ref.Version) {
		return bad("names a version that is not like v1beta1")
	}
	if !isKind(ref.Kind) {
		return bad("names a kind that is not a Go type name")
	}
	return &ref, nil
}

// splitFields splits a literal's fields at the commas outside strings.
func splitFields(s string) []string {
	var out []string
	start := 0
	b := []byte(s)
	for i := 0; i < len(b); i++ {
		switch b[i] {
		case '"', '`', '\'':
			i = skipLiteral(b, i)
		case ',':
			out = append(out, s[start:i])
			start = i + 1
		}
	}
	if t := strings.TrimSpace(s[start:]); t != "" {
		out = append(out, s[start:])
	}
	return out
}

// ---- small helpers ----

// hasPackage reports whether src (without comments) has a package clause
// at the start of a line: "package v1".
func hasPackage(src []byte) bool {
	for rest := src; len(rest) > 0; {
		line := rest
		if i := bytes.IndexByte(rest, '\n'); i >= 0 {
			line, rest = rest[:i], rest[i+1:]
		} else {
			rest = nil
		}
		if name, ok := bytes.CutPrefix(line, []byte("package")); ok && len(name) > 1 && (name[0] == ' ' || name[0] == '\t') {
			name = bytes.TrimSpace(name)
			return len(name) > 0 && isIdent(string(name))
		}
	}
	return false
}

func isIdentByte(c byte) bool {
	return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
}

func isIdent(s string) bool {
	if s == "" || s[0] >= '0' && s[0] <= '9' || len(s) > 256 {
		return false
	}
	for i := 0; i < len(s); i++ {
		if !isIdentByte(s[i]) {
			return false
		}
	}
	return true
}

// isKind reports whether s can be a kind: an exported Go type name.
func isKind(s string) bool { return isIdent(s) && s[0] >= 'A' && s[0] <= 'Z' }

// clip shortens s for a message, at a rune boundary.
func clip(s string) string {
	if len(s) <= 80 {
		return s
	}
	n := 80
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n] + "…"
}
