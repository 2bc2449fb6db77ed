package service

import (
	"errors"
	"fmt"
	"net/http"
)

// Error is a contract error: an HTTP status and the message sent as
// {"error": message}.
type Error struct {
	Status  int
	Message string
}

func (e *Error) Error() string { return e.Message }

// ErrorBody is the JSON body of every error response.
type ErrorBody struct {
	Error string `json:"error"`
}

// Errorf returns an *Error with this status.
func Errorf(status int, format string, args ...any) error {
	return &Error{Status: status, Message: fmt.Sprintf(format, args...)}
}

// Errors every server answers the same way.
var (
	ErrNotFound         = &Error{http.StatusNotFound, "not found"}
	ErrMethodNotAllowed = &Error{http.StatusMethodNotAllowed, "method not allowed"}
	ErrTooLarge         = &Error{http.StatusRequestEntityTooLarge, fmt.Sprintf("request body is larger than %d bytes", MaxBodyBytes)}
)

// StatusOf is the HTTP status for err: its own for an *Error, 413 for a body
// cut off by http.MaxBytesReader, 500 for anything else.
func StatusOf(err error) int {
	var e *Error
	var tooLarge *http.MaxBytesError
	switch {
	case errors.As(err, &e):
		return e.Status
	case errors.As(err, &tooLarge):
		return http.StatusRequestEntityTooLarge
	}
	return http.StatusInternalServerError
}

// BodyOf is the error body for err.
func BodyOf(err error) ErrorBody {
	if StatusOf(err) == http.StatusRequestEntityTooLarge {
		return ErrorBody{ErrTooLarge.Message}
	}
	return ErrorBody{err.Error()}
}
