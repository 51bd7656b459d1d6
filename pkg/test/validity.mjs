// What each provider refuses in a request: the checks live in the eval (pkg/src/eval/validity.ts),
// which counts a strategy's invalid requests with them; the tests check the package's own
// requests with the same ones.
export {
  PROBLEMS, aiSdkProblems, anthropicProblems, geminiProblems, openaiChatProblems, openaiResponsesProblems, requestText, vscodeProblems,
} from '@devs/context/eval';
