package chaincode

import (
	"sort"
	"strings"
	"testing"

	"github.com/hyperledger/fabric-chaincode-go/v2/shim"
	"github.com/hyperledger/fabric-contract-api-go/v2/contractapi"
	"github.com/hyperledger/fabric-protos-go-apiv2/ledger/queryresult"
)

// fakeStub keeps a world state in memory; the stub methods the contract does not call are left to
// the embedded interface (and would panic if called).
type fakeStub struct {
	shim.ChaincodeStubInterface
	state map[string][]byte
}

func (s *fakeStub) GetState(key string) ([]byte, error) { return s.state[key], nil }
func (s *fakeStub) PutState(key string, value []byte) error {
	s.state[key] = value
	return nil
}
func (s *fakeStub) DelState(key string) error {
	delete(s.state, key)
	return nil
}
func (s *fakeStub) GetStateByRange(start, end string) (shim.StateQueryIteratorInterface, error) {
	keys := make([]string, 0, len(s.state))
	for k := range s.state {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	kvs := make([]*queryresult.KV, 0, len(keys))
	for _, k := range keys {
		kvs = append(kvs, &queryresult.KV{Key: k, Value: s.state[k]})
	}
	return &fakeIterator{kvs: kvs}, nil
}

type fakeIterator struct {
	kvs []*queryresult.KV
	i   int
}

func (it *fakeIterator) HasNext() bool { return it.i < len(it.kvs) }
func (it *fakeIterator) Next() (*queryresult.KV, error) {
	kv := it.kvs[it.i]
	it.i++
	return kv, nil
}
func (it *fakeIterator) Close() error { return nil }

type fakeContext struct {
	contractapi.TransactionContextInterface
	stub *fakeStub
}

func (c *fakeContext) GetStub() shim.ChaincodeStubInterface { return c.stub }

func newContext() *fakeContext {
	return &fakeContext{stub: &fakeStub{state: map[string][]byte{}}}
}

func TestCreateReadTransferDelete(t *testing.T) {
	c := &AssetTransfer{}
	ctx := newContext()
	if err := c.CreateAsset(ctx, "asset1", "blue", 5, "Tom", 300); err != nil {
		t.Fatal(err)
	}
	got, err := c.ReadAsset(ctx, "asset1")
	if err != nil || got.Owner != "Tom" || got.Size != 5 || got.AppraisedValue != 300 {
		t.Fatalf("ReadAsset = %+v, %v", got, err)
	}
	previous, err := c.TransferAsset(ctx, "asset1", "Ana")
	if err != nil || previous != "Tom" {
		t.Fatalf("TransferAsset = %q, %v", previous, err)
	}
	if got, _ := c.ReadAsset(ctx, "asset1"); got.Owner != "Ana" {
		t.Fatalf("owner after transfer = %q", got.Owner)
	}
	if err := c.DeleteAsset(ctx, "asset1"); err != nil {
		t.Fatal(err)
	}
	if exists, _ := c.AssetExists(ctx, "asset1"); exists {
		t.Fatal("asset1 still exists after DeleteAsset")
	}
}

func TestRefusesDuplicatesAndMissingAssets(t *testing.T) {
	c := &AssetTransfer{}
	ctx := newContext()
	if err := c.CreateAsset(ctx, "asset1", "red", 1, "Tom", 10); err != nil {
		t.Fatal(err)
	}
	if err := c.CreateAsset(ctx, "asset1", "red", 1, "Tom", 10); err == nil || !strings.Contains(err.Error(), "already exists") {
		t.Fatalf("duplicate create: %v", err)
	}
	if _, err := c.ReadAsset(ctx, "nope"); err == nil || !strings.Contains(err.Error(), "does not exist") {
		t.Fatalf("missing read: %v", err)
	}
}

func TestGetAllAssetsInKeyOrder(t *testing.T) {
	c := &AssetTransfer{}
	ctx := newContext()
	_ = c.CreateAsset(ctx, "b", "red", 1, "Tom", 10)
	_ = c.CreateAsset(ctx, "a", "blue", 2, "Ana", 20)
	all, err := c.GetAllAssets(ctx)
	if err != nil || len(all) != 2 || all[0].ID != "a" || all[1].ID != "b" {
		t.Fatalf("GetAllAssets = %+v, %v", all, err)
	}
}
