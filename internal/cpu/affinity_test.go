package cpu

import (
	"reflect"
	"testing"

	"golang.org/x/sys/unix"
)

func TestParseFormatList(t *testing.T) {
	for _, c := range []struct {
		in   string
		want []int
		fmt  string
		bad  bool
	}{
		{in: "0", want: []int{0}, fmt: "0"},
		{in: "0,2-3", want: []int{0, 2, 3}, fmt: "0,2-3"},
		{in: "3,1, 2", want: []int{1, 2, 3}, fmt: "1-3"},
		{in: "1-1,1", want: []int{1}, fmt: "1"},
		{in: "", bad: true},
		{in: "a", bad: true},
		{in: "3-1", bad: true},
		{in: "-1", bad: true},
	} {
		got, err := ParseList(c.in)
		if c.bad {
			if err == nil {
				t.Errorf("ParseList(%q) = %v, want an error", c.in, got)
			}
			continue
		}
		if err != nil || !reflect.DeepEqual(got, c.want) {
			t.Errorf("ParseList(%q) = %v, %v; want %v", c.in, got, err, c.want)
		}
		if f := FormatList(got); f != c.fmt {
			t.Errorf("FormatList(%v) = %q, want %q", got, f, c.fmt)
		}
	}
}

func TestPinSelf(t *testing.T) {
	var orig unix.CPUSet
	if err := unix.SchedGetaffinity(0, &orig); err != nil {
		t.Skip("no affinity on this system:", err)
	}
	first := -1
	for c := 0; c < 1024; c++ {
		if orig.IsSet(c) {
			first = c
			break
		}
	}
	all := []int{}
	for c := 0; c < 1024; c++ {
		if orig.IsSet(c) {
			all = append(all, c)
		}
	}
	defer PinSelf(all)
	if err := PinSelf([]int{first}); err != nil {
		t.Fatal(err)
	}
	var got unix.CPUSet
	if err := unix.SchedGetaffinity(0, &got); err != nil {
		t.Fatal(err)
	}
	if got.Count() != 1 || !got.IsSet(first) {
		t.Fatalf("after PinSelf([%d]) affinity has %d CPUs", first, got.Count())
	}
}
