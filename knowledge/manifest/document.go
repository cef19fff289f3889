package manifest

import (
	"bytes"
	"fmt"
)

// document reads document doc: buf is '\n' and its text, whose first
// line is stream line start. The fast path reads it if it can, else the
// slow path; then its objects and problems join the Result.
func (s *stream) document(doc int, buf []byte, start int) error {
	for {
		text := buf[1:]
		next, fastOK := s.fastRead(text)
		switch {
		case fastOK:
		case s.fast.deep:
			// The fast path counted the nesting itself: no need to parse.
			s.ext.reset()
			s.ext.fail(s.fast.bailLine, msgDeep(s.lim))
		default:
			s.stats.slow++
			slow(buf, s.lim, &s.ext, s.fast)
			next = 0
		}
		if next == 0 {
			return s.emit(doc, start, text)
		}
		// Another JSON value follows the first without a "---": it is the
		// next document.
		if err := s.emit(doc, start, text[:next]); err != nil {
			return err
		}
		start += bytes.Count(text[:next], []byte{'\n'})
		buf = buf[next:] // buf[0] is text[next-1]
		buf[0] = '\n'
		var err error
		if doc, err = s.nextDocument(); err != nil {
			return err
		}
	}
}

// fastRead finishes the fast path on text, or tries the fast JSON path
// on it. next > 0 is where a second top-level JSON value starts.
func (s *stream) fastRead(text []byte) (next int, ok bool) {
	switch {
	case s.flags&hasOdd != 0:
		return 0, false
	case s.json:
		if next, ok = s.fast.json(text); ok {
			s.stats.fastJSON++
		}
		return next, ok
	case s.feeding && s.fast.end():
		s.stats.fastYAML++
		return 0, true
	}
	return 0, false
}

// emit adds what the extraction of document doc holds to the Result.
func (s *stream) emit(doc, start int, text []byte) error {
	o := &s.out
	decide(&s.ext, doc, start, s.tmpl, o)
	if o.notObject || o.failed && !mayHoldObject(text) {
		if v, build, ok := kubectlVersion(text); ok {
			s.res.Kubectl = true
			if v != "" {
				s.res.ServerVersion, s.res.ServerBuild = v, build
			}
			return nil
		}
	}
	if o.notObject {
		s.res.NotObjects++
	}
	s.res.Problems = append(s.res.Problems, o.problems...)
	room := s.lim.MaxObjects - len(s.res.Objects)
	if len(o.objects) > room {
		s.res.Objects = append(s.res.Objects, o.objects[:room]...)
		return &streamError{Kind: ErrTooMany, Text: fmt.Sprintf("the input holds more than %d objects; the first %d were read", s.lim.MaxObjects, s.lim.MaxObjects)}
	}
	if need := len(s.res.Objects) + len(o.objects); need > cap(s.res.Objects) {
		objs := make([]Object, len(s.res.Objects), max(2*cap(s.res.Objects), need, 64))
		copy(objs, s.res.Objects)
		s.res.Objects = objs
	}
	s.res.Objects = append(s.res.Objects, o.objects...)
	return nil
}
