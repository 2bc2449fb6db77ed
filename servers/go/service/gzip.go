package service

import (
	"compress/gzip"
	"net/http"
	"strconv"
	"strings"
	"sync"
)

// gzipPool recycles gzip writers: each holds a few hundred KB of compressor
// state, too much to allocate per request.
var gzipPool = sync.Pool{New: func() any { return gzip.NewWriter(nil) }}

// AcceptsGzip reports whether an Accept-Encoding header value allows gzip:
// listed, and not with q=0.
func AcceptsGzip(acceptEncoding string) bool {
	for _, part := range strings.Split(acceptEncoding, ",") {
		coding, params, _ := strings.Cut(part, ";")
		if strings.EqualFold(strings.TrimSpace(coding), "gzip") {
			return qvalue(params) > 0
		}
	}
	return false
}

// qvalue is the q parameter of one Accept-Encoding entry, 1 when absent.
func qvalue(params string) float64 {
	for _, p := range strings.Split(params, ";") {
		k, v, _ := strings.Cut(strings.TrimSpace(p), "=")
		if strings.EqualFold(k, "q") {
			q, err := strconv.ParseFloat(v, 64)
			if err != nil {
				return 0
			}
			return q
		}
	}
	return 1
}

// Gzip compresses the responses of next for clients that accept gzip. It
// is the compressor of the net/http servers whose framework has none of
// its own (net/http, gorilla/mux); the contract applies it to /hello only.
func Gzip(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Add("Vary", "Accept-Encoding")
		if !AcceptsGzip(r.Header.Get("Accept-Encoding")) {
			next.ServeHTTP(w, r)
			return
		}
		zw := gzipPool.Get().(*gzip.Writer)
		zw.Reset(w)
		defer gzipPool.Put(zw)
		w.Header().Set("Content-Encoding", "gzip")
		next.ServeHTTP(GzipWriter{w, zw}, r)
		zw.Close()
	})
}

// GzipWriter is a ResponseWriter whose body goes through a gzip.Writer.
type GzipWriter struct {
	http.ResponseWriter
	Z *gzip.Writer
}

// Write compresses p.
func (g GzipWriter) Write(p []byte) (int, error) { return g.Z.Write(p) }

// WriteHeader drops any Content-Length, which counts uncompressed bytes.
func (g GzipWriter) WriteHeader(code int) {
	g.Header().Del("Content-Length")
	g.ResponseWriter.WriteHeader(code)
}

// AcquireGzip and ReleaseGzip share the writer pool with servers that wrap
// their framework's own response writer (gin).
func AcquireGzip() *gzip.Writer { return gzipPool.Get().(*gzip.Writer) }

// ReleaseGzip returns a writer taken with AcquireGzip.
func ReleaseGzip(zw *gzip.Writer) { gzipPool.Put(zw) }
