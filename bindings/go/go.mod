module hexoid.dev/go/hexoid

go 1.19
