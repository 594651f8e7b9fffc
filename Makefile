# Reasonix for teams. `make run` starts it, `make test` runs the whole suite.
VERSION ?= $(shell git describe --tags --always --dirty 2>/dev/null || echo dev)
LDFLAGS := -s -w -X main.version=$(VERSION)
GO ?= go
BENCH ?= .
ARGS ?= bot

.PHONY: build run test bench lint clean

build:
	CGO_ENABLED=0 $(GO) build -trimpath -ldflags '$(LDFLAGS)' -o reasonix ./cmd/reasonix

# run builds the binary and starts the chat bot; other subcommands with ARGS="...".
run: build
	./reasonix $(ARGS)

test:
	$(GO) vet ./...
	$(GO) test -race -count=1 -timeout 12m ./...

# bench runs every benchmark once and prints its figures (cache hit ratio, workspace
# speed-up, gateway latency and memory, stream parsing).
bench:
	$(GO) test -run '^$$' -bench '$(BENCH)' -benchtime 1x -count 1 ./...

# lint: gofmt, go vet and staticcheck (fetched through the Go module proxy at a
# pinned version; not a dependency of the binary).
STATICCHECK ?= honnef.co/go/tools/cmd/staticcheck@v0.8.2
lint:
	@out=$$(gofmt -l $$(git ls-files '*.go')); if [ -n "$$out" ]; then echo "gofmt needed:"; echo "$$out"; exit 1; fi
	$(GO) vet ./...
	$(GO) run $(STATICCHECK) ./...

clean:
	rm -f reasonix
