package lifecycle

import (
	"bytes"
	"encoding/json"
	"fmt"
	"sort"
	"strings"

	"github.com/kepbot/kepbot/knowledge"
	"github.com/kepbot/kepbot/knowledge/sources/provenance"
)

// ParsePatches reads endoflife-date/release-data's releases/kubernetes.json:
// {"releases": {...}, "versions": {"1.30.2": {"name": "1.30.2", "date":
// "2024-06-11"}, ...}}. It returns one knowledge.Patch per version named
// 1.x.y, sorted by release and patch number. Other names (pre-releases
// such as 1.31.0-rc.1, if the file ever lists them) are passed over and
// counted in one Warning; a version without a valid date is skipped with
// its own. name is what warnings and errors call the file; stamp gives
// the source's as-of date. It fails, wrapping one of the Err values and
// naming the file, when the file is empty, too large, not a JSON object,
// has no versions object, or no version can be read.
func ParsePatches(name string, data []byte, stamp provenance.Stamp) (*knowledge.Corpus, []Warning, error) {
	switch {
	case len(data) > MaxPatchesSize:
		return nil, nil, fileError(name, fmt.Errorf("%w: %d bytes, more than the %d MiB read", ErrTooLarge, len(data), MaxPatchesSize>>20))
	case len(bytes.TrimSpace(data)) == 0:
		return nil, nil, fileError(name, ErrEmpty)
	}
	var file struct {
		Versions json.RawMessage `json:"versions"`
	}
	if err := json.Unmarshal(data, &file); err != nil {
		return nil, nil, fileError(name, fmt.Errorf("%w: %s", ErrNotJSON, err))
	}
	var versions map[string]json.RawMessage
	if len(file.Versions) == 0 || json.Unmarshal(file.Versions, &versions) != nil || versions == nil {
		return nil, nil, fileError(name, ErrNoVersions)
	}
	w := &warnings{file: name}
	out, others := readVersions(versions, w)
	if len(others) > 0 {
		ex := others[:min(3, len(others))]
		w.add("", fmt.Sprintf("%d name(s) that are not releases such as 1.30.2 passed over (%s)", len(others), strings.Join(ex, ", ")))
	}
	if len(out) == 0 {
		return nil, nil, fileError(name, ErrNothingUsable)
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].Release != out[j].Release {
			return out[i].Release.Less(out[j].Release)
		}
		return out[i].Number < out[j].Number
	})
	return &knowledge.Corpus{
		Sources: []knowledge.Source{{
			ID: PatchesSourceID, Name: "Kubernetes patch releases (endoflife.date release-data)", Kind: knowledge.SourcePatches,
			Lang: "en", AsOf: stamp.Date, URL: "https://github.com/endoflife-date/release-data/blob/main/releases/kubernetes.json",
		}},
		Patches: out,
	}, w.done(), nil
}

// readVersions reads each version of the versions object, in name order,
// and returns the patches and the names that are not 1.x.y.
func readVersions(versions map[string]json.RawMessage, w *warnings) (out []knowledge.Patch, others []string) {
	keys := make([]string, 0, len(versions))
	for k := range versions {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	type patchKey struct {
		rel knowledge.Version
		n   int
	}
	seen := map[patchKey]bool{}
	for _, k := range keys {
		var v struct {
			Name string `json:"name"`
			Date string `json:"date"`
		}
		if err := json.Unmarshal(versions[k], &v); err != nil {
			w.add(clip(k), "skipped: not an object with a name and a date")
			continue
		}
		ver := strings.TrimSpace(k)
		if v.Name != "" && v.Name != k {
			w.add(clip(k), fmt.Sprintf("its name is %q; read as %s", clip(v.Name), clip(k)))
		}
		rel, n, ok := parsePatchName(ver)
		if !ok {
			others = append(others, clip(ver))
			continue
		}
		d, ok := day(strings.TrimSpace(v.Date))
		if !ok {
			w.add(ver, fmt.Sprintf("skipped: date %q is not a date", clip(v.Date)))
			continue
		}
		if seen[patchKey{rel, n}] {
			w.add(ver, "skipped: the same release is listed twice")
			continue
		}
		seen[patchKey{rel, n}] = true
		out = append(out, knowledge.Patch{Release: rel, Number: n, Date: d, Source: PatchesSourceID})
	}
	return out, others
}
