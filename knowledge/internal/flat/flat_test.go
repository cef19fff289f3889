package flat

import (
	"slices"
	"testing"
)

func TestStrings(t *testing.T) {
	ss := []string{"", "dra", "image", "", "镜像卷", "volume"}
	f := NewStrings(ss)
	if f.Len() != len(ss) {
		t.Fatalf("Len = %d, want %d", f.Len(), len(ss))
	}
	for i, s := range ss {
		if f.At(i) != s {
			t.Errorf("At(%d) = %q, want %q", i, f.At(i), s)
		}
	}
	sorted := NewStrings([]string{"image", "imagevolume", "pod", "volume"})
	for _, c := range []struct {
		t    string
		want int
	}{{"", 0}, {"image", 0}, {"imagev", 1}, {"p", 2}, {"pod", 2}, {"zz", 4}} {
		if got := sorted.Search(c.t); got != c.want {
			t.Errorf("Search(%q) = %d, want %d", c.t, got, c.want)
		}
	}
	if NewStrings(nil).Len() != 0 {
		t.Error("an empty list has strings")
	}
}

func TestLists(t *testing.T) {
	ls := [][]int{{1, 2}, nil, {3}, {4, 5, 6}}
	f := NewLists(ls)
	if f.Len() != len(ls) {
		t.Fatalf("Len = %d, want %d", f.Len(), len(ls))
	}
	for i, l := range ls {
		if !slices.Equal(f.At(i), l) {
			t.Errorf("At(%d) = %v, want %v", i, f.At(i), l)
		}
	}
	_ = append(f.At(0), 99) // must copy, not write into list 2
	if got := f.At(2); !slices.Equal(got, []int{3}) {
		t.Errorf("list 2 after appending to list 0 = %v, want [3]", got)
	}
}
