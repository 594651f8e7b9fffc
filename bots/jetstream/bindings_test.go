package jetstream

import (
	"context"
	"errors"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/reasonix/teams/bots"
)

func TestBindings(t *testing.T) {
	for _, mode := range modes {
		t.Run(mode.name, func(t *testing.T) {
			t.Parallel()
			s := openStore(t, mode.options(t))
			ctx := context.Background()

			list, err := s.ListBindings(ctx)
			if err != nil || len(list) != 0 {
				t.Fatalf("ListBindings on an empty bucket: got %v, %v; want [], nil", list, err)
			}

			// Thread keys hold characters KV keys may not.
			b := bots.Binding{Key: "slack:T1:C 1:1712.0001/*>", Repo: "api", Turns: 1}
			rev1, err := s.PutBinding(ctx, b, 0)
			if err != nil {
				t.Fatalf("create: %v", err)
			}
			b2 := b
			b2.Turns = 2
			rev2, err := s.PutBinding(ctx, b2, rev1)
			if err != nil {
				t.Fatalf("update at current revision: %v", err)
			}
			if rev2 <= rev1 {
				t.Errorf("revision after update: got %d, want more than %d", rev2, rev1)
			}

			puts := []struct {
				name string
				b    bots.Binding
				rev  uint64
				want error
			}{
				{"create existing", b, 0, bots.ErrConflict},
				{"update at stale revision", b, rev1, bots.ErrConflict},
				{"update missing key", bots.Binding{Key: "discord:G:C:T"}, rev2, bots.ErrConflict},
			}
			for _, p := range puts {
				if _, err := s.PutBinding(ctx, p.b, p.rev); !isErr(err, p.want) {
					t.Errorf("%s: got %v, want %v", p.name, err, p.want)
				}
			}
			if _, err := s.PutBinding(ctx, bots.Binding{}, 0); err == nil || errors.Is(err, bots.ErrConflict) {
				t.Errorf("put without key: got %v, want a plain error", err)
			}

			got, rev, err := s.GetBinding(ctx, b.Key)
			if err != nil {
				t.Fatalf("GetBinding: %v", err)
			}
			if rev != rev2 || !reflect.DeepEqual(got, b2) {
				t.Errorf("GetBinding: got %+v at %d, want %+v at %d", got, rev, b2, rev2)
			}
			if _, _, err := s.GetBinding(ctx, "slack:T1:C1:nope"); !errors.Is(err, bots.ErrNotFound) {
				t.Errorf("GetBinding missing: got %v, want %v", err, bots.ErrNotFound)
			}

			other := bots.Binding{Key: "discord:G1:C9:T9", Repo: "web"}
			if _, err := s.PutBinding(ctx, other, 0); err != nil {
				t.Fatalf("create other: %v", err)
			}
			list, err = s.ListBindings(ctx)
			if err != nil {
				t.Fatalf("ListBindings: %v", err)
			}
			slices.SortFunc(list, func(x, y bots.Binding) int { return strings.Compare(x.Key, y.Key) })
			if want := []bots.Binding{other, b2}; !reflect.DeepEqual(list, want) {
				t.Errorf("ListBindings: got %+v, want %+v", list, want)
			}
		})
	}
}

// TestBindingCASRace has many writers update one binding from the same
// revision: exactly one wins.
func TestBindingCASRace(t *testing.T) {
	for _, mode := range modes {
		t.Run(mode.name, func(t *testing.T) {
			t.Parallel()
			s := openStore(t, mode.options(t))
			ctx := context.Background()
			b := bots.Binding{Key: "slack:T1:C1:race"}
			rev, err := s.PutBinding(ctx, b, 0)
			if err != nil {
				t.Fatalf("create: %v", err)
			}
			const writers = 20
			errs := make(chan error, writers)
			for i := range writers {
				go func() {
					nb := b
					nb.Turns = i + 1
					_, err := s.PutBinding(ctx, nb, rev)
					errs <- err
				}()
			}
			wins := 0
			for range writers {
				err := <-errs
				switch {
				case err == nil:
					wins++
				case !errors.Is(err, bots.ErrConflict):
					t.Errorf("losing writer: got %v, want %v", err, bots.ErrConflict)
				}
			}
			if wins != 1 {
				t.Errorf("winning writers: got %d, want 1", wins)
			}
		})
	}
}
