package limit

// Or returns v, or d when v is zero or negative: a limit left unset takes
// its default.
func Or[T ~int | ~int64](v, d T) T {
	if v <= 0 {
		return d
	}
	return v
}
