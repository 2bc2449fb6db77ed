// Command go-gin serves the restbench contract with github.com/gin-gonic/gin.
//
// Production setup: release mode and gin.New() without gin.Default()'s two
// middlewares. The Logger writes a line per request, which would dominate a
// benchmark; Recovery swallows http.ErrAbortHandler, the panic that aborts
// a /filter response that fails half-way, and net/http already survives a
// panicking handler.
package main

import (
	"net/http"

	"github.com/gin-gonic/gin"

	"restbench/servers/go/service"
)

func newRouter() *gin.Engine {
	gin.SetMode(gin.ReleaseMode)
	r := gin.New()
	r.HandleMethodNotAllowed = true
	r.NoRoute(func(c *gin.Context) { abort(c, service.ErrNotFound) })
	r.NoMethod(func(c *gin.Context) { abort(c, service.ErrMethodNotAllowed) })

	r.GET("/status", func(c *gin.Context) { c.JSON(http.StatusOK, service.StatusResponse{Status: "ok"}) })
	r.POST("/echo", echo)
	r.POST("/echo/any", echoAny)
	r.POST("/sum", sum)
	r.GET("/hello", gzipped, func(c *gin.Context) { c.JSON(http.StatusOK, service.HelloResponse{Result: "Hello world"}) })
	r.GET("/time", timeNow)
	r.POST("/filter", filter)
	r.GET("/runtime", func(c *gin.Context) { c.JSON(http.StatusOK, service.ReadRuntime()) })
	return r
}

func echo(c *gin.Context) {
	body, err := readBody(c)
	if err != nil {
		abort(c, err)
		return
	}
	colors, err := service.DecodeColors(body)
	if err != nil {
		abort(c, err)
		return
	}
	c.JSON(http.StatusOK, colors)
}

func echoAny(c *gin.Context) {
	body, err := readBody(c)
	if err != nil {
		abort(c, err)
		return
	}
	v, err := service.DecodeAny(body)
	if err != nil {
		abort(c, err)
		return
	}
	c.JSON(http.StatusOK, v)
}

func sum(c *gin.Context) {
	body, err := readBody(c)
	if err != nil {
		abort(c, err)
		return
	}
	res, err := service.Sum(body)
	if err != nil {
		abort(c, err)
		return
	}
	c.JSON(http.StatusOK, res)
}

func timeNow(c *gin.Context) {
	p, err := service.ParseTime(c.Request.URL.Query())
	if err != nil {
		abort(c, err)
		return
	}
	if service.Wait(c.Request.Context(), p.Delay) != nil {
		return // the client went away
	}
	service.Work(p.Work)
	c.JSON(http.StatusOK, service.Now())
}

func filter(c *gin.Context) {
	min, err := service.ParseMinVersion(c.Request.URL.Query())
	if err != nil {
		abort(c, err)
		return
	}
	// Read the body while the response streams out; see service.FilterHandler.
	_ = http.NewResponseController(c.Writer).EnableFullDuplex()
	c.Header("Content-Type", "application/json")
	started, err := service.StreamFilter(c.Writer, c.Request.Body, min)
	switch {
	case err == nil:
	case !started:
		abort(c, err)
	default:
		panic(http.ErrAbortHandler) // close the connection: the array is cut short
	}
}

// readBody reads a body of at most service.MaxBodyBytes; gin has no limit
// of its own, so it uses net/http's MaxBytesReader as gin's docs suggest.
func readBody(c *gin.Context) ([]byte, error) {
	return service.ReadRequestBody(c.Writer, c.Request)
}

// abort answers err; service.Drain says why it reads the body first.
func abort(c *gin.Context, err error) {
	if !service.Drain(c.Request.Body) {
		c.Header("Connection", "close")
	}
	c.AbortWithStatusJSON(service.StatusOf(err), service.BodyOf(err))
}

func main() {
	service.MainHTTP("go-gin", newRouter())
}
