/**
 * The behaviour scenarios the runner runs with the response checks (see core/scenario.ts),
 * one module per rule, in the order they run (exhaust-stage scenarios run last whatever
 * their place here).
 */
import type { Scenario } from "../core/scenario.ts";
import { fixedPrefix } from "./auth-fixed-prefix.ts";
import { keyFormat } from "./auth-key-format.ts";
import { keyNeverInQueryA, keyNeverInQueryB } from "./auth-key-never-in-query.ts";
import { livePrefix } from "./auth-live-prefix.ts";
import { merchantReadScope } from "./auth-merchant-read-scope.ts";
import { testKeysRefusedByLive } from "./auth-test-keys-refused-live.ts";
import { userAgentOptional } from "./auth-user-agent-optional.ts";
import { postAndPutTakeJson } from "./family-b-content-type-json.ts";
import { idempotencyKeyAvoidsDuplicates } from "./family-b-idempotency-no-duplicates.ts";
import { boletoCancelStateMachine } from "./boleto-cancel-state-machine.ts";
import { boletoCancelRefusedOtherStates } from "./boleto-cancel-refused-other-states.ts";
import { chargeCreatedPending } from "./charge-created-pending.ts";
import { chargeExpiredAtExpiresAt } from "./charge-expired-at-expires-at.ts";
import { pixChargeRemovedAtExpiresAt } from "./pix-charge-removed-at-expires-at.ts";
import { pixChargePaidStaysPaid } from "./pix-charge-paid-stays-paid.ts";
import { chargePaidStaysPaid } from "./charge-paid-stays-paid.ts";
import { chargeOwnPix } from "./charge-own-pix.ts";
import { errorsCarryStableCode } from "./errors-stable-code.ts";
import { customerDeleteRefusedUnchanged } from "./customer-delete-refused-unchanged.ts";
import { customerLifecycle } from "./customer-lifecycle.ts";
import { customerSoftDeleteKeepsRecord } from "./customer-soft-delete-keeps-record.ts";
import { customerDeleteAgainSameRecord } from "./customer-delete-again-same-record.ts";
import { customerUpdateSetsStatus } from "./customer-update-sets-status.ts";
import { customerUpdateRefusedWhenDeleted } from "./customer-update-refused-when-deleted.ts";
import { webhookRetriedAfterFailure } from "./events-webhook-retried.ts";
import { boletoWebhooksSigned, webhookSignedWithHmac } from "./events-webhook-signed.ts";
import { boletoWebhookSignatureVerifies, webhookSignatureVerifies } from "./events-webhook-verifies.ts";
import { webhookRotationOverlap } from "./events-webhook-rotation-overlap.ts";
import { mismatchKeepsOriginal } from "./idempotency-mismatch-keeps-original.ts";
import { newKeyCreatesCharge } from "./idempotency-new-key-creates.ts";
import { parallelRequestsOneCharge } from "./idempotency-parallel-one-charge.ts";
import { parallelEachAsAlone } from "./idempotency-parallel-each-as-alone.ts";
import { replayMarker } from "./idempotency-replay-marker.ts";
import { replayReturnsOriginal } from "./idempotency-replay-returns-original.ts";
import { keyKept24Hours } from "./idempotency-key-kept-24-hours.ts";
import { replayAnyForm } from "./idempotency-replay-any-form.ts";
import { transactionCustomerHeld } from "./transaction-customer-held.ts";
import { pixPaymentNeedsLookup } from "./pix-payment-needs-lookup.ts";
import { keysScopedPerApiKey } from "./idempotency-scoped-per-api-key.ts";
import { writesNeedIdempotencyKey } from "./idempotency-writes-need-key.ts";
import { rateLimitExhaustion } from "./rate-limit-exhaustion.ts";
import { rateLimitRetryAfterAdmitted } from "./rate-limit-retry-after-admitted.ts";
import { generalLimitAnnounced } from "./rate-limit-general-announced.ts";
import { rateLimitHeadersConsistent } from "./rate-limit-headers-consistent.ts";
import { pixLimitAnnounced } from "./rate-limit-pix-announced.ts";
import { queryLimitAnnounced } from "./rate-limit-queries-announced.ts";
import { transactionLimitAnnounced } from "./rate-limit-transactions-announced.ts";
import { perResourceLimitsSeparate } from "./rate-limit-per-resource.ts";
import { pixLimitEnforcedSeparately, transactionLimitEnforcedSeparately } from "./rate-limit-creations-exhaustion.ts";
import { familyAUnderV1 } from "./service-v1-prefix.ts";
import { chargeTenantIsolation, customerTenantIsolation, merchantTenantIsolation } from "./tenant-isolation.ts";
import { healthV1EnvelopeSemver } from "./versioning-health-v1.ts";
import { transactionsPaginated } from "./transactions-paginated.ts";
import { transactionPagesSplitTheList } from "./transactions-pages-split-the-list.ts";
import { publishedPrefix } from "./paths-published-prefix.ts";
import { unknownPathWrongMethodA, unknownPathWrongMethodB } from "./paths-unknown-and-wrong-method.ts";
import { webhookTargetsRefused } from "./webhook-targets-refused.ts";
import { nameResolvingNonPublicNotCalled, webhookToHostName } from "./webhook-targets-named-host.ts";

export const SCENARIOS: Scenario[] = [
  // family A
  familyAUnderV1,
  writesNeedIdempotencyKey,
  newKeyCreatesCharge,
  replayReturnsOriginal,
  replayAnyForm,
  keyKept24Hours,
  keysScopedPerApiKey,
  parallelRequestsOneCharge,
  parallelEachAsAlone,
  replayMarker,
  mismatchKeepsOriginal,
  chargeCreatedPending,
  chargeExpiredAtExpiresAt,
  chargePaidStaysPaid,
  chargeOwnPix,
  errorsCarryStableCode,
  keyNeverInQueryA,
  webhookTargetsRefused,
  nameResolvingNonPublicNotCalled,
  testKeysRefusedByLive,
  livePrefix,
  merchantReadScope,
  chargeTenantIsolation,
  merchantTenantIsolation,
  webhookSignedWithHmac,
  webhookSignatureVerifies,
  webhookToHostName,
  webhookRetriedAfterFailure,
  unknownPathWrongMethodA,
  // family B
  healthV1EnvelopeSemver,
  publishedPrefix,
  unknownPathWrongMethodB,
  keyNeverInQueryB,
  keyFormat,
  fixedPrefix,
  userAgentOptional,
  postAndPutTakeJson,
  idempotencyKeyAvoidsDuplicates,
  customerLifecycle,
  customerDeleteRefusedUnchanged,
  customerSoftDeleteKeepsRecord,
  customerDeleteAgainSameRecord,
  customerUpdateSetsStatus,
  customerUpdateRefusedWhenDeleted,
  customerTenantIsolation,
  boletoCancelStateMachine,
  boletoCancelRefusedOtherStates,
  boletoWebhooksSigned,
  boletoWebhookSignatureVerifies,
  webhookRotationOverlap,
  transactionsPaginated,
  transactionPagesSplitTheList,
  transactionCustomerHeld,
  pixPaymentNeedsLookup,
  pixChargeRemovedAtExpiresAt,
  pixChargePaidStaysPaid,
  rateLimitHeadersConsistent,
  generalLimitAnnounced,
  pixLimitAnnounced,
  transactionLimitAnnounced,
  queryLimitAnnounced,
  perResourceLimitsSeparate,
  pixLimitEnforcedSeparately,
  transactionLimitEnforcedSeparately,
  rateLimitExhaustion,
  rateLimitRetryAfterAdmitted,
];
