// The Filecoin chain's block header and message types, in the IPLD Schema DSL, from the IPLD
// specs' data-structures/filecoin/chain.md ("Chain" and "Messages"; github.com/ipld/ipld), which
// follow Lotus's chain/types (cbor-gen tuple encodings).
//
// One change: the specs write `Signature` as a `byteprefix` union over the signature's first byte
// (1 secp256k1, 2 BLS). This codec does not support bytes-prefix unions (nor does @ipld/schema's
// typed form under that name), so here a Signature is its bytes, prefix included, as on the wire.

export const filecoinSchema = `
type Address bytes
type BigInt bytes
type TokenAmount = BigInt
type ChainEpoch int
type MethodNum int
type CborEncodedParams bytes

# the specs' byteprefix union, read as the bytes it is written as (see above)
type Signature bytes

type StateRootLink &Any
type TipSetKey [&BlockHeader]

type BlockHeader struct {
  Miner Address
  Ticket nullable Ticket
  ElectionProof nullable ElectionProof
  BeaconEntries [BeaconEntry]
  WinPoStProof [PoStProof]
  Parents TipSetKey
  ParentWeight Bytes
  Height ChainEpoch
  ParentStateRoot StateRootLink
  ParentMessageReceipts &Any
  Messages &TxMeta
  BLSAggregate nullable Signature
  Timestamp Int
  BlockSig nullable Signature
  ForkSignaling Int
  ParentBaseFee TokenAmount
} representation tuple

type Ticket struct {
  VRFProof Bytes
} representation tuple

type ElectionProof struct {
  WinCount Int
  VRFProof Bytes
} representation tuple

type BeaconEntry struct {
  Round Int
  Data Bytes
} representation tuple

type PoStProof struct {
  PoStProof Int
  ProofBytes Bytes
} representation tuple

type TxMeta struct {
  BlsMessages &Any
  SecpkMessages &Any
} representation tuple

type Message struct {
  Version Int
  To Address
  From Address
  Nonce Int
  Value BigInt
  GasLimit Int
  GasFeeCap BigInt
  GasPremium BigInt
  Method MethodNum
  Params CborEncodedParams
} representation tuple

type SignedMessage struct {
  Message Message
  Signature Signature
} representation tuple
`
