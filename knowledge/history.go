package knowledge

// Step is one point of a KEP's stage timeline: the stage a source put it at
// in a release.
type Step struct {
	Stage   Stage   `json:"stage"`
	Release Version `json:"release"`
	Source  string  `json:"source,omitempty"`
	// Back is true when this step returns to an earlier stage than the one
	// already reached (beta back to alpha).
	Back bool `json:"back,omitempty"`
	// Repeat is true when a later document names a stage already reached;
	// it does not move the graduation.
	Repeat bool `json:"repeat,omitempty"`
}
