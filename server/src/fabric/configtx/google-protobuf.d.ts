/**
 * The one google-protobuf module we use directly (it comes with @hyperledger/fabric-protos,
 * which has no types for it). Only the members we call are declared.
 */
declare module "google-protobuf/google/protobuf/timestamp_pb.js" {
  export class Timestamp {
    getSeconds(): number;
    setSeconds(value: number): void;
    getNanos(): number;
    setNanos(value: number): void;
    serializeBinary(): Uint8Array;
  }
  const timestampPb: { Timestamp: typeof Timestamp };
  export default timestampPb;
}
