package exports

import "fmt"

// errUnknownDoc reports a value that is not one of the document types: a
// programming error.
func errUnknownDoc(doc any) error {
	return fmt.Errorf("exports: %T is not a document", doc)
}
