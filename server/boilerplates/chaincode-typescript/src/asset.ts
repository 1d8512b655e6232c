import { Object as DataType, Property } from "fabric-contract-api";

/** What the ledger stores under an asset's id. */
@DataType()
export class Asset {
  @Property()
  public ID = "";

  @Property()
  public Color = "";

  @Property()
  public Size = 0;

  @Property()
  public Owner = "";

  @Property()
  public AppraisedValue = 0;
}
