// Package chaincode holds the asset-transfer contract.
package chaincode

import (
	"encoding/json"
	"fmt"

	"github.com/hyperledger/fabric-contract-api-go/v2/contractapi"
)

// AssetTransfer stores assets by id.
type AssetTransfer struct {
	contractapi.Contract
}

// Asset is what the ledger stores under an asset's id (JSON; Go writes struct fields in a fixed order).
type Asset struct {
	AppraisedValue int    `json:"AppraisedValue"`
	Color          string `json:"Color"`
	ID             string `json:"ID"`
	Owner          string `json:"Owner"`
	Size           int    `json:"Size"`
}

// CreateAsset stores a new asset; it fails when the id is taken.
func (s *AssetTransfer) CreateAsset(ctx contractapi.TransactionContextInterface, id string, color string, size int, owner string, appraisedValue int) error {
	exists, err := s.AssetExists(ctx, id)
	if err != nil {
		return err
	}
	if exists {
		return fmt.Errorf("the asset %s already exists", id)
	}
	return put(ctx, Asset{ID: id, Color: color, Size: size, Owner: owner, AppraisedValue: appraisedValue})
}

// ReadAsset returns the asset stored under id.
func (s *AssetTransfer) ReadAsset(ctx contractapi.TransactionContextInterface, id string) (*Asset, error) {
	b, err := ctx.GetStub().GetState(id)
	if err != nil {
		return nil, fmt.Errorf("reading the world state: %v", err)
	}
	if len(b) == 0 {
		return nil, fmt.Errorf("the asset %s does not exist", id)
	}
	var asset Asset
	if err := json.Unmarshal(b, &asset); err != nil {
		return nil, err
	}
	return &asset, nil
}

// UpdateAsset replaces an existing asset's fields.
func (s *AssetTransfer) UpdateAsset(ctx contractapi.TransactionContextInterface, id string, color string, size int, owner string, appraisedValue int) error {
	exists, err := s.AssetExists(ctx, id)
	if err != nil {
		return err
	}
	if !exists {
		return fmt.Errorf("the asset %s does not exist", id)
	}
	return put(ctx, Asset{ID: id, Color: color, Size: size, Owner: owner, AppraisedValue: appraisedValue})
}

// DeleteAsset removes an asset.
func (s *AssetTransfer) DeleteAsset(ctx contractapi.TransactionContextInterface, id string) error {
	exists, err := s.AssetExists(ctx, id)
	if err != nil {
		return err
	}
	if !exists {
		return fmt.Errorf("the asset %s does not exist", id)
	}
	return ctx.GetStub().DelState(id)
}

// AssetExists reports whether an asset is stored under id.
func (s *AssetTransfer) AssetExists(ctx contractapi.TransactionContextInterface, id string) (bool, error) {
	b, err := ctx.GetStub().GetState(id)
	if err != nil {
		return false, fmt.Errorf("reading the world state: %v", err)
	}
	return len(b) > 0, nil
}

// TransferAsset gives an asset a new owner and returns the previous one.
func (s *AssetTransfer) TransferAsset(ctx contractapi.TransactionContextInterface, id string, newOwner string) (string, error) {
	asset, err := s.ReadAsset(ctx, id)
	if err != nil {
		return "", err
	}
	previous := asset.Owner
	asset.Owner = newOwner
	return previous, put(ctx, *asset)
}

// GetAllAssets returns every asset in key order.
func (s *AssetTransfer) GetAllAssets(ctx contractapi.TransactionContextInterface) ([]*Asset, error) {
	it, err := ctx.GetStub().GetStateByRange("", "")
	if err != nil {
		return nil, err
	}
	defer it.Close()
	assets := []*Asset{}
	for it.HasNext() {
		kv, err := it.Next()
		if err != nil {
			return nil, err
		}
		var asset Asset
		if err := json.Unmarshal(kv.Value, &asset); err != nil {
			return nil, err
		}
		assets = append(assets, &asset)
	}
	return assets, nil
}

func put(ctx contractapi.TransactionContextInterface, asset Asset) error {
	b, err := json.Marshal(asset)
	if err != nil {
		return err
	}
	return ctx.GetStub().PutState(asset.ID, b)
}
