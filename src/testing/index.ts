export { scriptedModel, type ScriptedModel, type ScriptedModelOptions, type ScriptedTurn, type ScriptedWait } from "./scripted-model.js";
