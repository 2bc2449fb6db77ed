package main

import (
	"compress/gzip"

	"github.com/gin-gonic/gin"

	"restbench/servers/go/service"
)

// gzipped compresses the response for clients that accept gzip. It is
// gin-contrib/gzip in miniature (that module is not a dependency), with the
// gzip writer pool shared with the other Go servers.
func gzipped(c *gin.Context) {
	c.Writer.Header().Add("Vary", "Accept-Encoding")
	if !service.AcceptsGzip(c.GetHeader("Accept-Encoding")) {
		c.Next()
		return
	}
	zw := service.AcquireGzip()
	defer service.ReleaseGzip(zw)
	zw.Reset(c.Writer)
	c.Header("Content-Encoding", "gzip")
	c.Writer = &gzipWriter{c.Writer, zw}
	c.Next()
	zw.Close()
}

// gzipWriter sends the body through the gzip writer.
type gzipWriter struct {
	gin.ResponseWriter
	zw *gzip.Writer
}

func (g *gzipWriter) Write(p []byte) (int, error)       { return g.zw.Write(p) }
func (g *gzipWriter) WriteString(s string) (int, error) { return g.zw.Write([]byte(s)) }
