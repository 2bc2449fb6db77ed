package result

// Capacity is the outcome of a capacity search: `restbench capacity --json`
// writes it, and a trial whose rate came from a search keeps it (RateFrom).
type Capacity struct {
	// CapacityRPS is the highest target rate that was sustained (see
	// CapacityStep.Sustained); 0 when no step was.
	CapacityRPS float64        `json:"capacity_rps"`
	P99BoundMS  float64        `json:"p99_bound_ms,omitempty"` // the --p99 bound; 0: none
	Steps       []CapacityStep `json:"steps"`
	// Settings is the load of every step but its rate (each step's target
	// is its own).
	Settings Settings `json:"settings"`
}

// CapacityStep is one load of a capacity search. Target 0 is the
// closed-loop step that seeds the search when no start rate is given.
type CapacityStep struct {
	TargetRPS   float64  `json:"target_rps"`
	AchievedRPS float64  `json:"achieved_rps"`
	P50MS       float64  `json:"p50_ms"`
	P99MS       float64  `json:"p99_ms"`
	Missed      int64    `json:"missed"`
	Errors      int64    `json:"errors"`
	Flags       []string `json:"flags,omitempty"`
	// Sustained: achieved >= 95 % of target, nothing missed, no backlog
	// when the window opened (due <= 105 % of the window's arrivals), no request
	// failed, no stalled connection (once each connection was due 5
	// requests: capacity.StallEvidence), and p99 within the bound when one
	// is given. Why says what failed otherwise.
	Sustained bool   `json:"sustained"`
	Why       string `json:"why,omitempty"`
}

// RateFrom is where a trial's open-loop rate came from when the suite gave
// it as a fraction of a capacity: rate = Fraction x CapacityRPS.
type RateFrom struct {
	Run         string  `json:"run"` // the run whose capacity it is
	Fraction    float64 `json:"fraction"`
	CapacityRPS float64 `json:"capacity_rps"`
	// Method: "search" (an open-loop capacity search of Run, once per round,
	// against a fresh server; Search holds its steps) or "closed-loop" (the
	// median req/s of Run's trials so far).
	Method string    `json:"method"`
	Search *Capacity `json:"search,omitempty"`
}

// RateFrom methods.
const (
	RateFromSearch     = "search"
	RateFromClosedLoop = "closed-loop"
)
