// The tools the official MCP conformance suite (@modelcontextprotocol/conformance 0.1.16) calls
// for elicitation and sampling, written as toolrx tools with `ctx.askUser` and `ctx.sample`.
import { z } from "zod";
import { defineTool, error, ok, type Tool } from "../../../src/index.js";

/** `tools-call-elicitation`: the user's name and email, with the message the client sent. */
export const testElicitation = defineTool({
  name: "test_elicitation",
  description: "Asks the user for a name and an email",
  schema: z.object({ message: z.string() }),
  handler: async ({ message }, ctx) => {
    const form = {
      type: "object",
      properties: {
        username: { type: "string", description: "User's response" },
        email: { type: "string", description: "User's email address" },
      },
      required: ["username", "email"],
    } as const;
    const answer = await ctx.askUser(message, form);
    if (answer.action !== "accept") return ok(`User response: action=${answer.action}`);
    return ok(`User response: action=accept, content=${JSON.stringify({ username: answer.content.username, email: answer.content.email })}`);
  },
});

/** `elicitation-sep1034-defaults`: a default for each primitive type (SEP-1034). */
export const testSep1034Defaults = defineTool({
  name: "test_elicitation_sep1034_defaults",
  description: "Asks with a default for each field",
  schema: z.object({}),
  handler: async (_args, ctx) => {
    const form = {
      type: "object",
      properties: {
        name: { type: "string", description: "User name", default: "John Doe" },
        age: { type: "integer", description: "User age", default: 30 },
        score: { type: "number", description: "User score", default: 95.5 },
        status: { type: "string", description: "User status", enum: ["active", "inactive", "pending"], default: "active" },
        verified: { type: "boolean", description: "Verification status", default: true },
      },
      required: [],
    } as const;
    const answer = await ctx.askUser("Test client default value handling - please accept with defaults", form);
    return ok(`Elicitation completed: action=${answer.action}, content=${JSON.stringify(answer.action === "accept" ? answer.content : {})}`);
  },
});

/** `elicitation-sep1330-enums`: the five enum forms of SEP-1330, as the suite spells them. */
export const testSep1330Enums = defineTool({
  name: "test_elicitation_sep1330_enums",
  description: "Asks with every kind of enum",
  schema: z.object({}),
  handler: async (_args, ctx) => {
    const form = {
      type: "object",
      properties: {
        untitledSingle: { type: "string", enum: ["option1", "option2", "option3"] },
        titledSingle: {
          type: "string",
          oneOf: [
            { const: "value1", title: "First Option" },
            { const: "value2", title: "Second Option" },
            { const: "value3", title: "Third Option" },
          ],
        },
        legacyEnum: { type: "string", enum: ["opt1", "opt2", "opt3"], enumNames: ["Option One", "Option Two", "Option Three"] },
        untitledMulti: { type: "array", items: { type: "string", enum: ["option1", "option2", "option3"] } },
        titledMulti: {
          type: "array",
          items: {
            anyOf: [
              { const: "value1", title: "First Choice" },
              { const: "value2", title: "Second Choice" },
              { const: "value3", title: "Third Choice" },
            ],
          },
        },
      },
      required: [],
    } as const;
    const answer = await ctx.askUser("Choose", form);
    return ok(`Elicitation completed: action=${answer.action}, content=${JSON.stringify(answer.action === "accept" ? answer.content : {})}`);
  },
});

/** `tools-call-sampling`: the prompt to the client's model, its reply in the result. */
export const testSampling = defineTool({
  name: "test_sampling",
  description: "Asks the client's model",
  schema: z.object({ prompt: z.string() }),
  handler: async ({ prompt }, ctx) => {
    const reply = await ctx.sample({ messages: [{ role: "user", content: prompt }], maxTokens: 100 });
    return reply.text === "" ? error("the model said nothing") : ok(`LLM response: ${reply.text}`);
  },
});

export const CONFORMANCE_TOOLS: readonly Tool[] = [testElicitation, testSep1034Defaults, testSep1330Enums, testSampling];
