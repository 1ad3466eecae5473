export { decodeResult, decodeThrown, encodeResult, encodeThrown, type CodecOutcome, type Wire, type WireResult } from "./codec.js";
