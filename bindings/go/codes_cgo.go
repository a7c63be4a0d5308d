//go:build cgo

package hexoid

/*
#include <stdlib.h>
#include "shim.h"
*/
import "C"

import "unsafe"

// libraryCodes is the library's list of codes: element n the name of code n ("" for 0),
// and CanonicalCode as the library reads a name (its code's name, or "" for none).
func libraryCodes() []string {
	names := make([]string, int(C.HEXOID_CODE_COUNT))
	for i := 1; i < len(names); i++ {
		if s := C.hexoid_code_name(C.enum_hexoid_code(i)); s != nil {
			names[i] = C.GoString(s)
		}
	}
	return names
}

// libraryCodeOf is the name of the code the library reads name as, or "".
func libraryCodeOf(name string) string {
	cs := C.CString(name)
	defer C.free(unsafe.Pointer(cs))
	if s := C.hexoid_code_name(C.hexoid_code_from_name(cs)); s != nil {
		return C.GoString(s)
	}
	return ""
}
