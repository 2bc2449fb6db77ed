package service

import (
	"encoding/json"
	"io"
	"net/http"
)

// The net/http handlers of the contract, shared by the servers built on
// net/http routers (net/http's ServeMux, chi, gorilla/mux). Routing, 404 and
// 405 belong to each router; everything behind a route is here.

// Status answers the readiness probe.
func Status(w http.ResponseWriter, r *http.Request) {
	WriteJSON(w, http.StatusOK, StatusResponse{"ok"})
}

// StatusResponse is the /status answer.
type StatusResponse struct {
	Status string `json:"status"`
}

// HelloResponse is the /hello answer.
type HelloResponse struct {
	Result string `json:"result"`
}

// Hello is the plain JSON endpoint; routers put a compressor in front of it.
// It encodes the answer on every request, as the Node servers do, rather
// than sending prepared bytes (docs/contract.md#get-hello).
func Hello(w http.ResponseWriter, r *http.Request) {
	WriteJSON(w, http.StatusOK, HelloResponse{"Hello world"})
}

// Echo decodes the body into Colors and writes it back.
func Echo(w http.ResponseWriter, r *http.Request) {
	body, err := ReadRequestBody(w, r)
	if err != nil {
		Refuse(w, r, err)
		return
	}
	colors, err := DecodeColors(body)
	if err != nil {
		WriteError(w, err)
		return
	}
	WriteJSON(w, http.StatusOK, colors)
}

// EchoAny decodes the body into a generic value and writes it back.
func EchoAny(w http.ResponseWriter, r *http.Request) {
	body, err := ReadRequestBody(w, r)
	if err != nil {
		Refuse(w, r, err)
		return
	}
	v, err := DecodeAny(body)
	if err != nil {
		WriteError(w, err)
		return
	}
	WriteJSON(w, http.StatusOK, v)
}

// SumHandler answers /sum.
func SumHandler(w http.ResponseWriter, r *http.Request) {
	body, err := ReadRequestBody(w, r)
	if err != nil {
		Refuse(w, r, err)
		return
	}
	sum, err := Sum(body)
	if err != nil {
		WriteError(w, err)
		return
	}
	WriteJSON(w, http.StatusOK, sum)
}

// Time waits, works, then answers the time.
func Time(w http.ResponseWriter, r *http.Request) {
	p, err := ParseTime(r.URL.Query())
	if err != nil {
		WriteError(w, err)
		return
	}
	if Wait(r.Context(), p.Delay) != nil {
		return // the client went away
	}
	Work(p.Work)
	WriteJSON(w, http.StatusOK, Now())
}

// FilterHandler streams /filter.
func FilterHandler(w http.ResponseWriter, r *http.Request) {
	min, err := ParseMinVersion(r.URL.Query())
	if err != nil {
		WriteError(w, err)
		return
	}
	// net/http's HTTP/1 server discards the unread request body when the
	// response starts, unless told that the handler reads and writes at
	// the same time. (HTTP/2 always allows it and answers an error here.)
	_ = http.NewResponseController(w).EnableFullDuplex()
	w.Header().Set("Content-Type", "application/json")
	started, err := StreamFilter(w, r.Body, min)
	switch {
	case err == nil:
	case !started:
		Refuse(w, r, err)
	default:
		// Half the array is out with status 200; closing the connection
		// is the only way left to tell the client it is incomplete.
		panic(http.ErrAbortHandler)
	}
}

// NotFound answers an unknown path.
func NotFound(w http.ResponseWriter, r *http.Request) { WriteError(w, ErrNotFound) }

// MethodNotAllowed answers a known path with a method it does not serve.
func MethodNotAllowed(w http.ResponseWriter, r *http.Request) {
	WriteError(w, ErrMethodNotAllowed)
}

// Allow is MethodNotAllowed with the Allow header, for routers that leave
// it to the handler.
func Allow(methods string) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Allow", methods)
		MethodNotAllowed(w, r)
	}
}

// ReadRequestBody reads a body of at most MaxBodyBytes. MaxBytesReader also
// tells the server to close the connection after a 413 instead of reading on.
func ReadRequestBody(w http.ResponseWriter, r *http.Request) ([]byte, error) {
	return ReadBody(http.MaxBytesReader(w, r.Body, MaxBodyBytes), r.ContentLength)
}

// DrainBytes is how much unread request body an error answer reads and
// discards first, so that a client still sending it can read the answer.
const DrainBytes = 8 << 20

// Drain reads and discards what is left of a request body, up to
// DrainBytes, and reports whether it reached the end. Answering an error
// without it loses the answer on net/http when the request said
// Connection: close: body.Close skips the unread body, and closing a socket
// with unread data in its receive buffer resets it, so the client reads
// ECONNRESET instead of the 413 (RFC 9112 section 9.6). fasthttp would
// otherwise read the rest of the body as the next request.
func Drain(body io.Reader) bool {
	n, err := io.Copy(io.Discard, io.LimitReader(body, DrainBytes+1))
	return err == nil && n <= DrainBytes
}

// Refuse answers err after Drain; when the body is longer than DrainBytes
// (or broken) the answer says Connection: close.
func Refuse(w http.ResponseWriter, r *http.Request, err error) {
	if !Drain(r.Body) {
		w.Header().Set("Connection", "close")
	}
	WriteError(w, err)
}

// WriteJSON writes v as the JSON body with this status.
func WriteJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(v) // a failed write means the client left
}

// WriteError writes err as {"error": "..."} with its status.
func WriteError(w http.ResponseWriter, err error) {
	WriteJSON(w, StatusOf(err), BodyOf(err))
}
