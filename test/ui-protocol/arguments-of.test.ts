import { describe, expect, it } from "vitest";
import { argumentsOf } from "../../src/ui-protocol/index.js";

// The one home of the JSON reading both UI protocols do for a call's arguments (AG-UI's
// `function.arguments`, an AI SDK model's `tool-call` input).
describe("argumentsOf", () => {
  it("gives the object the JSON text holds", () => {
    expect(argumentsOf('{"city":"Paris","days":[1,2]}')).toEqual({ city: "Paris", days: [1, 2] });
  });

  it("gives {} for text that is not JSON, or JSON that holds no object", () => {
    for (const text of ["", "{", "[1]", "null", "3", '"x"', "true"]) expect(argumentsOf(text), text).toEqual({});
  });
});
