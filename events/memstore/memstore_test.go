package memstore_test

import (
	"testing"

	"github.com/ltscamp/ltscamp/events"
	"github.com/ltscamp/ltscamp/events/memstore"
	"github.com/ltscamp/ltscamp/events/storetest"
)

func TestConformance(t *testing.T) {
	storetest.Run(t, func(t *testing.T) events.Store { return memstore.New() })
}
