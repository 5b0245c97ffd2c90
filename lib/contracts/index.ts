import type { Contract } from "./contract";
import { companyDiscoverContract, companyEnrichContract, companySearchContract } from "./companies";
import { domainEmailsContract, intelligenceContract } from "./enrichment";
import {
  createDestinationContract,
  deleteDestinationContract,
  listAttemptsContract,
  listDestinationsContract,
  replayDeliveriesContract,
  replayDeliveryContract,
  updateDestinationContract,
} from "./forwarding";
import { videoDetailsContract } from "./media";
import { peopleSearchContract, personEmailContract, personEnrichContract, personMobileContract } from "./people";
import { getHealthContract, getOpenApiDocumentContract } from "./system";
import {
  acknowledgeDeliveriesContract,
  acknowledgeDeliveryContract,
  createWebhookEndpointContract,
  deleteWebhookEndpointContract,
  exportDeliveriesContract,
  getDeliveryContract,
  getDeliveryRawBodyContract,
  getWebhookEndpointContract,
  ingestDeliveryContract,
  listDeliveriesContract,
  listDeliveryEventTypesContract,
  listWebhookEndpointsContract,
  streamDeliveryEventsContract,
  updateWebhookEndpointContract,
} from "./webhooks";
import {
  createInvitationContract,
  getCurrentUserContract,
  listInvitationsContract,
  listMembersContract,
  removeMemberContract,
  revokeInvitationContract,
  updateMemberContract,
} from "./members";
import {
  createSignUpInvitationContract,
  creditWorkspaceContract,
  listOperatorWorkspacesContract,
  listSignUpInvitationsContract,
  revokeSignUpInvitationContract,
  getUnknownEndpointRequestsContract,
} from "./operator";
import { listRejectionsContract } from "./rejections";
import { getWorkspaceContract } from "./workspace";
import {
  createApiKeyContract,
  getUsageContract,
  listApiKeysContract,
  listWorkspacesContract,
  revokeApiKeyContract,
} from "./workspace-admin";

/** Every operation of the API. The OpenAPI document and the route-coverage test are built from this list. */
export const contracts: readonly Contract[] = [
  getWorkspaceContract,
  listWorkspacesContract,
  listApiKeysContract,
  createApiKeyContract,
  revokeApiKeyContract,
  getUsageContract,
  getCurrentUserContract,
  listMembersContract,
  updateMemberContract,
  removeMemberContract,
  listInvitationsContract,
  createInvitationContract,
  revokeInvitationContract,
  listOperatorWorkspacesContract,
  creditWorkspaceContract,
  listSignUpInvitationsContract,
  createSignUpInvitationContract,
  revokeSignUpInvitationContract,
  getUnknownEndpointRequestsContract,
  domainEmailsContract,
  intelligenceContract,
  companyEnrichContract,
  companySearchContract,
  companyDiscoverContract,
  personEmailContract,
  personEnrichContract,
  personMobileContract,
  peopleSearchContract,
  videoDetailsContract,
  createWebhookEndpointContract,
  listWebhookEndpointsContract,
  getWebhookEndpointContract,
  updateWebhookEndpointContract,
  deleteWebhookEndpointContract,
  listRejectionsContract,
  ingestDeliveryContract,
  listDeliveriesContract,
  listDeliveryEventTypesContract,
  getDeliveryContract,
  getDeliveryRawBodyContract,
  acknowledgeDeliveryContract,
  acknowledgeDeliveriesContract,
  exportDeliveriesContract,
  streamDeliveryEventsContract,
  createDestinationContract,
  listDestinationsContract,
  updateDestinationContract,
  deleteDestinationContract,
  listAttemptsContract,
  replayDeliveryContract,
  replayDeliveriesContract,
  getOpenApiDocumentContract,
  getHealthContract,
];
