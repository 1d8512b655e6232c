// A test chaincode (Go, fabric-contract-api-go) for ChainLaunch's lifecycle tests, run as a
// chaincode-as-a-service server: the console passes CHAINCODE_ID and CHAINCODE_SERVER_ADDRESS.
package main

import (
	"encoding/json"
	"fmt"
	"log"
	"os"

	"github.com/hyperledger/fabric-chaincode-go/v2/shim"
	"github.com/hyperledger/fabric-contract-api-go/v2/contractapi"
)

// The upgrade test rewrites the next line to version "2"; keep it on one line.
const contractVersion = "1"

// AssetContract stores assets by id.
type AssetContract struct {
	contractapi.Contract
}

// Asset is what ReadAsset returns.
type Asset struct {
	ID      string `json:"id"`
	Value   string `json:"value"`
	Version string `json:"version"`
}

type stored struct {
	ID    string `json:"id"`
	Value string `json:"value"`
}

// AssetExists reports whether an asset is stored under id.
func (c *AssetContract) AssetExists(ctx contractapi.TransactionContextInterface, id string) (bool, error) {
	b, err := ctx.GetStub().GetState(id)
	if err != nil {
		return false, err
	}
	return len(b) > 0, nil
}

// CreateAsset stores a new asset; it fails if the id is taken.
func (c *AssetContract) CreateAsset(ctx contractapi.TransactionContextInterface, id string, value string) error {
	exists, err := c.AssetExists(ctx, id)
	if err != nil {
		return err
	}
	if exists {
		return fmt.Errorf("asset %s already exists", id)
	}
	b, _ := json.Marshal(stored{ID: id, Value: value})
	return ctx.GetStub().PutState(id, b)
}

// UpdateAsset changes the value of an existing asset.
func (c *AssetContract) UpdateAsset(ctx contractapi.TransactionContextInterface, id string, value string) error {
	exists, err := c.AssetExists(ctx, id)
	if err != nil {
		return err
	}
	if !exists {
		return fmt.Errorf("asset %s does not exist", id)
	}
	b, _ := json.Marshal(stored{ID: id, Value: value})
	return ctx.GetStub().PutState(id, b)
}

// ReadAsset returns the asset with the contract version that answered.
func (c *AssetContract) ReadAsset(ctx contractapi.TransactionContextInterface, id string) (*Asset, error) {
	b, err := ctx.GetStub().GetState(id)
	if err != nil {
		return nil, err
	}
	if len(b) == 0 {
		return nil, fmt.Errorf("asset %s does not exist", id)
	}
	var s stored
	if err := json.Unmarshal(b, &s); err != nil {
		return nil, err
	}
	return &Asset{ID: s.ID, Value: s.Value, Version: contractVersion}, nil
}

func main() {
	cc, err := contractapi.NewChaincode(&AssetContract{})
	if err != nil {
		log.Fatalf("creating the chaincode: %v", err)
	}
	server := &shim.ChaincodeServer{
		CCID:     os.Getenv("CHAINCODE_ID"),
		Address:  os.Getenv("CHAINCODE_SERVER_ADDRESS"),
		CC:       cc,
		TLSProps: tlsProps(),
	}
	log.Printf("asset-go %s serving %s on %s", contractVersion, server.CCID, server.Address)
	if err := server.Start(); err != nil {
		log.Fatalf("chaincode server: %v", err)
	}
}

func tlsProps() shim.TLSProperties {
	if os.Getenv("CHAINCODE_TLS_DISABLED") != "false" {
		return shim.TLSProperties{Disabled: true}
	}
	read := func(env string) []byte {
		name := os.Getenv(env)
		if name == "" {
			return nil
		}
		b, err := os.ReadFile(name)
		if err != nil {
			log.Fatalf("reading %s (%s): %v", env, name, err)
		}
		return b
	}
	return shim.TLSProperties{
		Disabled:      false,
		Key:           read("CHAINCODE_TLS_KEY"),
		Cert:          read("CHAINCODE_TLS_CERT"),
		ClientCACerts: read("CHAINCODE_CLIENT_CA_CERT"),
	}
}
