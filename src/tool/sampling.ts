/**
 * One message of a conversation a handler puts to the client's model with `ctx.sample`. Text
 * only: what every host that offers a model can carry.
 */
export interface SampleMessage {
  readonly role: "user" | "assistant";
  readonly content: string;
}

/**
 * What a handler asks the client's model (`ctx.sample`): MCP's `sampling/createMessage`, text
 * only. The client's host chooses the model and may show the request to its user first.
 */
export interface SampleRequest {
  readonly messages: readonly SampleMessage[];
  /** The most tokens the reply may take (required, as MCP has it). */
  readonly maxTokens: number;
  readonly systemPrompt?: string;
  readonly temperature?: number;
  readonly stopSequences?: readonly string[];
}

/** The client model's reply to {@link SampleRequest}. */
export interface SampleReply {
  /** The reply's text (its text blocks joined by a blank line). */
  readonly text: string;
  /** The model that answered, as the client names it. */
  readonly model: string;
  /** Why it stopped (`endTurn`, `maxTokens`, `stopSequence`, or the client's own word), when said. */
  readonly stopReason?: string;
}
