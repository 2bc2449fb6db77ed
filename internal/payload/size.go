package payload

import (
	"fmt"
	"strconv"
	"strings"
)

// ParseSize reads a byte count such as "5MB", "200MB", "1.5GB", "512KiB" or
// "100000". KB, MB and GB are powers of 1000; KiB, MiB and GiB powers of 1024.
// Case does not matter.
func ParseSize(s string) (int64, error) {
	t := strings.ToUpper(strings.TrimSpace(s))
	units := []struct {
		suffix string
		mult   float64
	}{
		{"KIB", 1 << 10}, {"MIB", 1 << 20}, {"GIB", 1 << 30},
		{"KB", 1e3}, {"MB", 1e6}, {"GB", 1e9},
		{"K", 1e3}, {"M", 1e6}, {"G", 1e9}, {"B", 1},
	}
	mult := 1.0
	for _, u := range units {
		if strings.HasSuffix(t, u.suffix) {
			t, mult = strings.TrimSpace(strings.TrimSuffix(t, u.suffix)), u.mult
			break
		}
	}
	n, err := strconv.ParseFloat(t, 64)
	if err != nil || !(n >= 0) || n*mult > 1<<50 {
		return 0, fmt.Errorf("size %q: want a byte count such as 5MB, 200MB, 512KiB or 100000", s)
	}
	return int64(n * mult), nil
}
