package refresh

import (
	"sort"

	"github.com/kepbot/kepbot/knowledge"
)

func sortVersions(vs []knowledge.Version) {
	sort.Slice(vs, func(i, j int) bool { return vs[i].Less(vs[j]) })
}
