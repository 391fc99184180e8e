/**
 * `@papercusp/chat-protocol/interactions`: durable card answers with bound
 * authority, Standard Schema validation, fenced transactions and typed
 * refusals.
 *
 * - {@link InteractionResolver}: open / answer / resolveElicitation / cancel /
 *   changeSchema / updateMetadata / read.
 * - {@link InteractionStore}: the contract a host implements;
 *   {@link MemoryInteractionStore} is the reference fake database.
 * - {@link StandardSchemaV1} and {@link standardValidate}: any Standard
 *   Schema validator (zod 4 works as is) checks an answer.
 *
 * The conformance kit for a host's store is in `./interactions/testing`.
 *
 * @module
 */
export {
  AUTHORITY_FIELDS,
  effectiveStatus,
  evaluateFence,
  nextRecordProblem,
  sameAuthority,
  sameSchema,
} from "./src/interactions/fence.ts";
export type {
  AlreadyExistsRefusal,
  CancelledRefusal,
  DeclineNotAllowedRefusal,
  DuplicateRefusal,
  EffectiveStatus,
  ExpiredRefusal,
  FenceRefusal,
  FenceStateRefusal,
  InteractionAuthority,
  InteractionRecordV1,
  InteractionRefusal,
  InteractionRefusalCode,
  InteractionStatus,
  InteractionStore,
  InvalidAnswerRefusal,
  InvalidRequestRefusal,
  NeedsReconciliationRefusal,
  NotFoundRefusal,
  PlainRefusal,
  SchemaChangedRefusal,
  SchemaLookup,
  SchemaRef,
  StaleRevisionRefusal,
  StoredSubmission,
  StoreRead,
  StoreUnavailableRefusal,
  SubmissionSource,
  TransactCallback,
  TransactCommit,
  TransactContext,
  TransactDecision,
  TransactRequest,
  UnauthorizedRefusal,
  UnknownSchemaRefusal,
  WorkflowTransition,
} from "./src/interactions/types.ts";
export {
  type AnswerInput,
  type AnswerOutcome,
  DEFAULT_MAX_ANSWER_BYTES,
  type ElicitationInput,
  InteractionResolver,
  type InteractionResolverOptions,
  type InteractionView,
  MAX_ANSWER_DEPTH,
  MAX_ID_LENGTH,
  MAX_METADATA_KEYS,
  MAX_METADATA_VALUE_LENGTH,
  type OpenedInteraction,
  type OpenInteractionInput,
  type ResolvedOutcome,
} from "./src/interactions/resolver.ts";
export type {
  CardApproval,
  CardOption,
  CardPresentation,
  CardPresentationKind,
  CardResponse,
  CardSpec,
  OpenCardSnapshot,
} from "./src/cards/types.ts";
export type { ElicitationResult } from "./src/cards/elicitation.ts";
export {
  type ElicitationValue,
  MAX_ELICITATION_KEYS,
  parseElicitationResult,
} from "./src/interactions/elicitation.ts";
export {
  FakeClock,
  InjectedFaultError,
  MemoryInteractionStore,
  type MemoryInteractionStoreOptions,
  type MemoryInteractionStoreStats,
} from "./src/interactions/memory_store.ts";
export {
  isStandardSchema,
  MAX_ISSUE_MESSAGE_LENGTH,
  MAX_ISSUE_PATH_LENGTH,
  MAX_VALIDATION_ISSUES,
  type StandardSchemaV1,
  type StandardTypedV1,
  standardValidate,
  type ValidationIssue,
  type ValidationRefusal,
} from "./src/interactions/standard_schema.ts";
export type { Refusal, Result } from "./src/result.ts";
