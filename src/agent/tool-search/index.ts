// The public file of tool-search/ (toolSearch): the only one its sibling concepts and src/index.ts import (see ../README.md).
export {
  RRF_K,
  toolSearch,
  type EmbedTexts,
  type EmbeddingCache,
  type ToolGroupInfo,
  type ToolMatch,
  type ToolSearch,
  type ToolSearchOptions,
} from "./tool-search.js";
