package http1

import (
	"bytes"
	"errors"
)

// errProtocol is a response that is not HTTP/1.1 as restbench reads it; it
// is counted as a read error.
var errProtocol = errors.New("malformed HTTP response")

// maxHeader bounds a response head; real servers send a few hundred bytes.
const maxHeader = 64 << 10

// Parser states.
const (
	stHead = iota
	stBody
	stChunkSize
	stChunkData
	stChunkEnd
	stTrailer
	stUntilClose
	stDone
)

// Response is an incremental HTTP/1.1 response parser. It is fed whatever
// each read returns, keeps no copy of the data unless it must (a head split
// across reads, or a body that --expect-json has to see), and reuses its
// buffers from one response to the next so the steady state allocates nothing.
type Response struct {
	state     int
	Status    int
	remaining int64 // body bytes left (stBody) or chunk bytes left (stChunkData)
	Close     bool  // the server will close the connection after this response
	head      []byte
	KeepBody  bool // --expect-json: keep the body to check it
	NoBody    bool // a HEAD request: the response has no body whatever it says
	Body      []byte
	line      []byte // a chunk-size or trailer line split across reads
}

// Reset prepares for the next response.
func (r *Response) Reset() {
	r.state, r.Status, r.remaining, r.Close = stHead, 0, 0, false
	r.head, r.Body, r.line = r.head[:0], r.Body[:0], r.line[:0]
}

// Feed consumes p and reports how many bytes belonged to this response and
// whether it is complete.
func (r *Response) Feed(p []byte) (n int, done bool, err error) {
	for n < len(p) && r.state != stDone {
		var k int
		switch r.state {
		case stHead:
			k, err = r.feedHead(p[n:])
		case stBody:
			k = int(min(int64(len(p)-n), r.remaining))
			r.keep(p[n : n+k])
			if r.remaining -= int64(k); r.remaining == 0 {
				r.state = stDone
			}
		case stUntilClose:
			k = len(p) - n
			r.keep(p[n:])
		case stChunkData:
			k = int(min(int64(len(p)-n), r.remaining))
			r.keep(p[n : n+k])
			if r.remaining -= int64(k); r.remaining == 0 {
				r.state = stChunkEnd
			}
		default: // stChunkSize, stChunkEnd, stTrailer: line-oriented
			k, err = r.feedLine(p[n:])
		}
		if err != nil {
			return n, false, err
		}
		n += k
	}
	return n, r.state == stDone, nil
}

// EOF tells the parser the server closed the connection; a body delimited
// by the close is then complete.
func (r *Response) EOF() bool {
	if r.state == stUntilClose {
		r.state = stDone
	}
	return r.state == stDone
}

func (r *Response) keep(p []byte) {
	if r.KeepBody {
		r.Body = append(r.Body, p...)
	}
}

// feedHead finds the end of the head, in p alone when the whole head came
// in one read (the usual case, no copy) or across reads in r.head.
func (r *Response) feedHead(p []byte) (int, error) {
	if len(r.head) == 0 {
		if i := bytes.Index(p, crlfcrlf); i >= 0 {
			return i + 4, r.parseHead(p[:i+4])
		}
	}
	// Keep up to 3 bytes of overlap so a CRLFCRLF split across reads is found.
	start := max(len(r.head)-3, 0)
	r.head = append(r.head, p...)
	if i := bytes.Index(r.head[start:], crlfcrlf); i >= 0 {
		end := start + i + 4
		used := len(p) - (len(r.head) - end)
		r.head = r.head[:end]
		err := r.parseHead(r.head)
		if r.state == stHead {
			r.head = r.head[:0] // an interim response: the next head starts afresh
		}
		return used, err
	}
	if len(r.head) > maxHeader || !statusLineStart(r.head) {
		return len(p), errProtocol
	}
	return len(p), nil
}

// statusLineStart says whether b can begin a status line ("HTTP/1.x "):
// bytes that cannot are a read error at once, not a head the parser waits
// for until the request times out (garbage without a line ending).
func statusLineStart(b []byte) bool {
	const want = "HTTP/1.x "
	for i := range min(len(b), len(want)) {
		if i != 7 && b[i] != want[i] {
			return false
		}
	}
	return true
}

var (
	crlf     = []byte("\r\n")
	crlfcrlf = []byte("\r\n\r\n")
)

// parseHead reads the status line and the three headers that frame the body.
func (r *Response) parseHead(h []byte) error {
	// "HTTP/1.1 200 OK"
	if len(h) < 12 || !bytes.HasPrefix(h, []byte("HTTP/1.")) || h[8] != ' ' {
		return errProtocol
	}
	s := h[9:12]
	if s[0] < '1' || s[0] > '5' || s[1] < '0' || s[1] > '9' || s[2] < '0' || s[2] > '9' {
		return errProtocol
	}
	r.Status = int(s[0]-'0')*100 + int(s[1]-'0')*10 + int(s[2]-'0')
	r.Close = h[7] == '0' // HTTP/1.0 closes unless it says keep-alive
	length, chunked := int64(-1), false
	i := bytes.Index(h, crlf) + 2
	for i < len(h)-2 {
		j := bytes.Index(h[i:], crlf)
		line := h[i : i+j]
		i += j + 2
		colon := bytes.IndexByte(line, ':')
		if colon <= 0 {
			return errProtocol
		}
		name, value := line[:colon], bytes.TrimSpace(line[colon+1:])
		switch {
		case asciiEqualFold(name, "content-length"):
			v, ok := parseUint(value, 10)
			if !ok {
				return errProtocol
			}
			length = v
		case asciiEqualFold(name, "transfer-encoding"):
			chunked = asciiContainsFold(value, "chunked")
		case asciiEqualFold(name, "connection"):
			if asciiContainsFold(value, "close") {
				r.Close = true
			} else if asciiContainsFold(value, "keep-alive") {
				r.Close = false
			}
		}
	}
	switch {
	case r.Status < 200 && r.Status != 101:
		// An interim response (100 Continue, 103 Early Hints) has no body
		// and is followed by the real one: read on.
		r.state, r.Status, r.Close = stHead, 0, false
	case r.NoBody || r.Status < 200 || r.Status == 204 || r.Status == 304:
		// A body-less status ends at the head.
		r.state = stDone
	case chunked:
		r.state = stChunkSize
	case length == 0:
		r.state = stDone
	case length > 0:
		r.state, r.remaining = stBody, length
	default:
		r.state, r.Close = stUntilClose, true
	}
	return nil
}

// feedLine consumes one CRLF-terminated line of the chunked framing.
func (r *Response) feedLine(p []byte) (int, error) {
	i := bytes.IndexByte(p, '\n')
	if i < 0 {
		if r.line = append(r.line, p...); len(r.line) > 4096 {
			return len(p), errProtocol
		}
		return len(p), nil
	}
	line := p[:i+1]
	if len(r.line) > 0 {
		r.line = append(r.line, line...)
		line = r.line
	}
	line = bytes.TrimRight(line, "\r\n")
	switch r.state {
	case stChunkSize:
		if semi := bytes.IndexByte(line, ';'); semi >= 0 {
			line = line[:semi]
		}
		size, ok := parseUint(bytes.TrimSpace(line), 16)
		if !ok {
			return i + 1, errProtocol
		}
		if size == 0 {
			r.state = stTrailer
		} else {
			r.state, r.remaining = stChunkData, size
		}
	case stChunkEnd:
		if len(line) != 0 {
			return i + 1, errProtocol
		}
		r.state = stChunkSize
	case stTrailer:
		if len(line) == 0 {
			r.state = stDone
		}
	}
	r.line = r.line[:0]
	return i + 1, nil
}

func parseUint(b []byte, base int64) (int64, bool) {
	if len(b) == 0 || len(b) > 15 {
		return 0, false
	}
	var v int64
	for _, c := range b {
		var d int64
		switch {
		case c >= '0' && c <= '9':
			d = int64(c - '0')
		case base == 16 && c >= 'a' && c <= 'f':
			d = int64(c-'a') + 10
		case base == 16 && c >= 'A' && c <= 'F':
			d = int64(c-'A') + 10
		default:
			return 0, false
		}
		v = v*base + d
	}
	return v, true
}

func lower(c byte) byte {
	if c >= 'A' && c <= 'Z' {
		return c + 'a' - 'A'
	}
	return c
}

func asciiEqualFold(b []byte, s string) bool {
	if len(b) != len(s) {
		return false
	}
	for i := range b {
		if lower(b[i]) != s[i] {
			return false
		}
	}
	return true
}

func asciiContainsFold(b []byte, s string) bool {
	for i := 0; i+len(s) <= len(b); i++ {
		if asciiEqualFold(b[i:i+len(s)], s) {
			return true
		}
	}
	return false
}
