package service

import (
	"errors"
	"io"
)

// FilterReader runs Filter on its own goroutine and offers the output as an
// io.ReadCloser, for frameworks that pull a response body from a reader
// after the handler has returned (fasthttp's SetBodyStream).
//
// Two things make it more than an io.Pipe:
//   - Read returns the filter's error instead of io.EOF when it fails, so
//     the framework aborts the connection rather than ending the body
//     cleanly (a truncated array sent as a complete 200 would be a lie).
//   - Close waits for the goroutine to stop. The goroutine reads the
//     request body, which the framework recycles once the response is done;
//     it must not outlive the response.
type FilterReader struct {
	first []byte // output produced before the handler returned
	pr    *io.PipeReader
	done  chan struct{}
}

// errResponseClosed stops the filter when the response ends early.
var errResponseClosed = errors.New("response closed before the filter finished")

// StartFilter starts filtering src and waits for the first FilterBuffer of
// output, or for the end when the output is shorter. An error at that point
// (a malformed body) means nothing was sent: the caller answers 400 and
// must not use the reader. Otherwise the caller streams the reader as the
// response body and the framework closes it.
func StartFilter(src io.Reader, min float64) (*FilterReader, error) {
	pr, pw := io.Pipe()
	f := &FilterReader{pr: pr, done: make(chan struct{})}
	go func() {
		defer close(f.done)
		_, err := StreamFilter(pw, src, min)
		pw.CloseWithError(err) // nil: the reader sees io.EOF
	}()
	buf := make([]byte, FilterBuffer)
	n, err := io.ReadFull(pr, buf)
	switch err {
	case nil, io.ErrUnexpectedEOF, io.EOF: // a full buffer, or all of a short output
		f.first = buf[:n]
		return f, nil
	}
	f.Close()
	return nil, err
}

// Read returns the output that StartFilter already holds, then the rest.
func (f *FilterReader) Read(p []byte) (int, error) {
	if len(f.first) > 0 {
		n := copy(p, f.first)
		f.first = f.first[n:]
		return n, nil
	}
	return f.pr.Read(p)
}

// Close stops the filter if it is still running and waits for it.
func (f *FilterReader) Close() error {
	f.pr.CloseWithError(errResponseClosed)
	<-f.done
	return nil
}
