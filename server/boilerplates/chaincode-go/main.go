// An asset-transfer chaincode (Go, fabric-contract-api-go) run as a chaincode-as-a-service server:
// the console passes CHAINCODE_ID and CHAINCODE_SERVER_ADDRESS, and the TLS files when TLS is on.
package main

import (
	"log"
	"os"

	"assettransfer/chaincode"

	"github.com/hyperledger/fabric-chaincode-go/v2/shim"
	"github.com/hyperledger/fabric-contract-api-go/v2/contractapi"
)

func main() {
	cc, err := contractapi.NewChaincode(&chaincode.AssetTransfer{})
	if err != nil {
		log.Fatalf("creating the chaincode: %v", err)
	}
	server := &shim.ChaincodeServer{
		CCID:     os.Getenv("CHAINCODE_ID"),
		Address:  os.Getenv("CHAINCODE_SERVER_ADDRESS"),
		CC:       cc,
		TLSProps: tlsProps(),
	}
	log.Printf("asset-transfer serving %s on %s", server.CCID, server.Address)
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
		Key:           read("CHAINCODE_TLS_KEY"),
		Cert:          read("CHAINCODE_TLS_CERT"),
		ClientCACerts: read("CHAINCODE_CLIENT_CA_CERT"),
	}
}
