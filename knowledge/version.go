package knowledge

import (
	"fmt"
	"strconv"
	"strings"
)

// Version is a Kubernetes minor release such as 1.29. Patch numbers are
// accepted when parsing ("1.29.3") but a release is identified by its minor.
// The zero Version means "unknown".
type Version struct {
	Major int
	Minor int
}

// ParseVersion reads "1.29", "v1.29", "V1.29", "1.29.0" and "v1.29.3".
// It fails on anything else, including "1", "1.x", "TBD" and "0.0".
func ParseVersion(s string) (Version, error) {
	t := strings.TrimSpace(s)
	t = strings.TrimPrefix(strings.TrimPrefix(t, "v"), "V")
	parts := strings.Split(t, ".")
	if len(parts) < 2 || len(parts) > 3 {
		return Version{}, fmt.Errorf("%q is not a version like 1.29", s)
	}
	var nums [3]int
	for i, p := range parts {
		if p == "" || len(p) > 4 {
			return Version{}, fmt.Errorf("%q is not a version like 1.29", s)
		}
		n, err := strconv.Atoi(p)
		if err != nil || n < 0 || p[0] == '+' {
			return Version{}, fmt.Errorf("%q is not a version like 1.29", s)
		}
		nums[i] = n
	}
	v := Version{Major: nums[0], Minor: nums[1]}
	if v.Major == 0 && v.Minor == 0 {
		return Version{}, fmt.Errorf("%q is not a release", s)
	}
	return v, nil
}

// MustVersion is ParseVersion for literals in tests and tables; it panics on
// a malformed literal.
func MustVersion(s string) Version {
	v, err := ParseVersion(s)
	if err != nil {
		panic(err)
	}
	return v
}

// IsZero reports whether v is the unknown version.
func (v Version) IsZero() bool { return v == Version{} }

// String returns "1.29", or "" for the zero Version.
func (v Version) String() string {
	if v.IsZero() {
		return ""
	}
	return strconv.Itoa(v.Major) + "." + strconv.Itoa(v.Minor)
}

// Compare returns -1, 0 or +1 as v is older than, the same as or newer than w.
// 1.9 is older than 1.10.
func (v Version) Compare(w Version) int {
	switch {
	case v.Major != w.Major:
		return cmpInt(v.Major, w.Major)
	default:
		return cmpInt(v.Minor, w.Minor)
	}
}

// Less reports whether v is older than w.
func (v Version) Less(w Version) bool { return v.Compare(w) < 0 }

// Next returns the following minor release.
func (v Version) Next() Version { return Version{Major: v.Major, Minor: v.Minor + 1} }

// MarshalText writes "1.29" so that versions read naturally in JSON.
func (v Version) MarshalText() ([]byte, error) { return []byte(v.String()), nil }

// UnmarshalText reads what MarshalText wrote; an empty text is the zero Version.
func (v *Version) UnmarshalText(b []byte) error {
	if len(b) == 0 {
		*v = Version{}
		return nil
	}
	p, err := ParseVersion(string(b))
	if err != nil {
		return err
	}
	*v = p
	return nil
}

func cmpInt(a, b int) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}
