package result

// Capacity is the outcome of a capacity search: `restbench capacity --json`
// writes it, and a trial whose rate came from a search keeps it (RateFrom).
type Capacity struct {
	// CapacityRPS is the highest target rate that was sustained (see
	// CapacityStep.Sustained); 0 when no step was.
	CapacityRPS float64 `json:"capacity_rps"`
	// SearchedRPS is the bisection's answer, when a check followed it
	// (rate_search: checked): CapacityRPS is then the first checking
	// step's rate that was sustained (Confirmed), or, with none, the rate
	// below the last check.
	SearchedRPS float64        `json:"searched_rps,omitempty"`
	Confirmed   bool           `json:"confirmed,omitempty"`
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
	// Check marks a step that checked the bisection's answer, over a
	// longer window (capacity.Options.Confirm).
	Check bool `json:"check,omitempty"`
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

// ConnectionsFrom is how a trial's connections were sized at run time when
// the suite gave a rule (connections: little(M)): Connections =
// ceil(RateRPS × (HoldMS + ServiceP99MS) / 1000 × Margin), at most the
// scale's max_connections (Capped).
type ConnectionsFrom struct {
	Rule         string  `json:"rule"` // "little"
	Margin       float64 `json:"margin"`
	RateRPS      float64 `json:"rate_rps"`
	HoldMS       float64 `json:"hold_ms"`        // the cell's delay, plus its work in a work mix
	ServiceP99MS float64 `json:"service_p99_ms"` // the server's p99 at about RateRPS
	// ServiceAtRPS is the rate whose p99 it is: the target of the capacity
	// search's sustained step at or above the rate with the smallest p99,
	// else of its highest sustained step; with rate_of a closed-loop run, that run's median req/s
	// (ServiceP99MS is then the median p99 of its trials).
	ServiceAtRPS float64 `json:"service_at_rps"`
	// CellServiceMS is the mean service time this cell's latest finished
	// trial (its previous round's) measured, when it was longer than
	// HoldMS + ServiceP99MS: Connections then counts it in place of those
	// two (ceil(RateRPS × CellServiceMS / 1000 × Margin)). Only a trial that
	// kept up on a server with CPU to spare counts (docs/suites.md).
	CellServiceMS float64 `json:"cell_service_ms,omitempty"`
	Connections   int     `json:"connections"`
	Capped        bool    `json:"capped,omitempty"`
}

// DurationFrom is how a trial's window was sized at run time when the suite
// gave a rule (window:): the longest of FloorS, ForRequestsS and
// ForLatencyS, at most MaxS (Capped when the rule asked for more).
type DurationFrom struct {
	Rule                  string  `json:"rule"`    // "window"
	FloorS                float64 `json:"floor_s"` // the scale's duration
	RequestsPerConnection int     `json:"requests_per_connection,omitempty"`
	ForRequestsS          float64 `json:"for_requests_s,omitempty"` // requests × connections ÷ rate
	Latencies             float64 `json:"latencies,omitempty"`
	LatencyMS             float64 `json:"latency_ms,omitempty"`
	// LatencyFrom: "published" (the cell's published latency_mean_ms) or
	// "hold + service p99" (ConnectionsFrom's, without a published figure).
	LatencyFrom string  `json:"latency_from,omitempty"`
	ForLatencyS float64 `json:"for_latency_s,omitempty"` // latencies × latency
	MaxS        float64 `json:"max_s"`
	Capped      bool    `json:"capped,omitempty"`
	DurationS   float64 `json:"duration_s"`
}
