package corpus

import (
	"errors"
	"io/fs"
	"syscall"
)

// unreadable describes why a corpus file cannot be read, in words an
// operator can act on: the message names the file and the cause (a symbolic
// link loop, a permission, a missing target), not just "cannot read".
func unreadable(name string, err error) error {
	var why string
	switch {
	case errors.Is(err, syscall.ELOOP):
		why = "it is a symbolic link loop (the link points, directly or through other links, back to itself); point it at a real file"
	case errors.Is(err, fs.ErrNotExist):
		why = "it does not exist (a dangling symbolic link, or a file removed while loading)"
	case errors.Is(err, fs.ErrPermission):
		why = "permission denied; make it readable by the user paperbot runs as"
	default:
		var pe *fs.PathError
		if errors.As(err, &pe) {
			err = pe.Err // the path is already in the message
		}
		why = err.Error()
	}
	return &Error{Op: opLoad, Kind: Invalid, Msg: "cannot read corpus file " + name + ": " + why, Err: err}
}
