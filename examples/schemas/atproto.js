// AT Protocol repository types in the IPLD Schema DSL: the commit object and the MST node, from
// the AT Protocol repository spec (atproto.com/specs/repository: "Commit Objects", "MST
// Structure"), and the app.bsky.feed.post record, from its Lexicon (app.bsky.feed.post,
// app.bsky.embed.images, app.bsky.richtext.facet, com.atproto.repo.strongRef).
//
// `$type` is not a schema field name: those fields are named `type` and renamed to "$type".
// Records and embeds are unions on their "$type" (inline unions); the post lists the embeds and
// facet features this schema knows, and refuses others. No type is named as a prelude type
// (Link, String, ...): @ipld/schema's typed form would then read Any's links as that type.

export const atprotoSchema = `
# A signed commit: v3 has rev; v2 repos (the test CARs) do not, hence optional
type Commit struct {
  did String
  version Int
  data &MSTNode
  rev optional String
  prev nullable &Commit
  sig Bytes
} representation map

# A node of the Merkle Search Tree
type MSTNode struct {
  l nullable &MSTNode
  e [TreeEntry]
} representation map

type TreeEntry struct {
  p Int
  k Bytes
  v &Any
  t nullable &MSTNode
} representation map

type StrongRef struct {
  uri String
  cid String
} representation map

type ReplyRef struct {
  root StrongRef
  parent StrongRef
} representation map

type Post struct {
  type String (rename "$type")
  text String
  createdAt String
  reply optional ReplyRef
  embed optional Embed
  facets optional [Facet]
  langs optional [String]
  tags optional [String]
  entities optional [Any]
} representation map

type Embed union {
  | Images "app.bsky.embed.images"
  | External "app.bsky.embed.external"
  | EmbedRecord "app.bsky.embed.record"
} representation inline {
  discriminantKey "$type"
}

type Images struct {
  images [Image]
} representation map

type Image struct {
  alt String
  image Blob
  aspectRatio optional AspectRatio
} representation map

type AspectRatio struct {
  width Int
  height Int
} representation map

type Blob struct {
  type String (rename "$type")
  ref &Any
  mimeType String
  size Int
} representation map

type External struct {
  external ExternalLink
} representation map

type ExternalLink struct {
  uri String
  title String
  description String
  thumb optional Blob
} representation map

type EmbedRecord struct {
  record StrongRef
} representation map

type Facet struct {
  index ByteSlice
  features [Feature]
} representation map

type ByteSlice struct {
  byteStart Int
  byteEnd Int
} representation map

type Feature union {
  | FacetLink "app.bsky.richtext.facet#link"
  | FacetMention "app.bsky.richtext.facet#mention"
  | FacetTag "app.bsky.richtext.facet#tag"
} representation inline {
  discriminantKey "$type"
}

type FacetLink struct {
  uri String
} representation map

type FacetMention struct {
  did String
} representation map

type FacetTag struct {
  tag String
} representation map
`
