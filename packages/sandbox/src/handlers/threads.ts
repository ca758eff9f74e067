// Threads: one per conversation item (call, text message or note), with comments in creation order.

import type { CommentRecord, TeamRecord, ThreadEntityType, ThreadRecord } from '../store/model.js';
import { type IdSchema, idPrefix } from '../support/id-prefixes.js';
import { parseMentions } from '../support/mentions.js';
import { userRef } from './common.js';
import { fail, type Handler, invalid, ok } from './types.js';

// Keyed by the contract's ThreadEntityType (a generated type): a new entity type fails to compile here.
const ID_SCHEMA_OF: Record<ThreadEntityType, IdSchema> = {
  CALL: 'CallId',
  TEXT_MESSAGE: 'TextMessageId',
  CONVERSATION_NOTE: 'NoteId',
};

function renderComment(team: TeamRecord, comment: CommentRecord) {
  return {
    id: comment.id,
    content: comment.content,
    user: userRef(team, comment.user_id) ?? { id: comment.user_id, name: null },
    mentions: parseMentions(comment, team.users),
    created_at: comment.created_at,
    updated_at: comment.updated_at,
  };
}

function renderThread(team: TeamRecord, thread: ThreadRecord, comments = thread.comments) {
  return {
    id: thread.id,
    entity_type: thread.entity_type,
    entity_id: thread.entity_id,
    contact_number: thread.contact_number,
    resolved: thread.resolved,
    resolved_at: thread.resolved_at,
    resolved_by: thread.resolved_by,
    comment_count: thread.comments.length,
    created_at: thread.created_at,
    comments: comments.map((c) => renderComment(team, c)),
  };
}

/** The contact number of the item a thread would belong to, or undefined when there is no such item. */
function entityContact(team: TeamRecord, type: ThreadEntityType, id: string): string | undefined {
  const list = type === 'CALL' ? team.calls : type === 'TEXT_MESSAGE' ? team.messages : team.notes;
  return list.find((e) => e.id === id)?.contact_number;
}

export const createThread: Handler = ({ team, key, body, now, newId }) => {
  const entityType = body.entity_type as ThreadEntityType;
  const entityId = body.entity_id as string;
  const prefix = idPrefix(ID_SCHEMA_OF[entityType]);
  if (!entityId.startsWith(prefix)) {
    return invalid([
      {
        field: 'entity_id',
        code: 'INVALID_REQUEST',
        message: `entity_id ${entityId} is not a ${entityType} id; ${entityType} ids start with ${prefix}`,
      },
    ]);
  }
  const contactNumber = entityContact(team, entityType, entityId);
  if (contactNumber === undefined)
    return fail('CONVERSATION_ITEM_NOT_FOUND', `No conversation item with id ${entityId}.`, { param: 'entity_id' });
  const existing = team.threads.find((t) => t.entity_id === entityId);
  if (existing) {
    return fail('THREAD_ALREADY_EXISTS', `Conversation item ${entityId} already has a thread, ${existing.id}.`, {
      param: 'entity_id',
      suggestion: `Find the thread with GET /v2/api/threads?entity_type=${entityType}&entity_id=${entityId} and add a comment to it with POST /v2/api/threads/${existing.id}/comments.`,
    });
  }
  const at = now();
  const comment: CommentRecord = {
    id: newId(idPrefix('ThreadCommentId')),
    content: body.content as string,
    user_id: key.owner_user_id,
    created_at: at,
    updated_at: at,
  };
  const thread: ThreadRecord = {
    id: newId(idPrefix('ThreadId')),
    entity_type: entityType,
    entity_id: entityId,
    contact_number: contactNumber,
    resolved: false,
    resolved_at: null,
    resolved_by: null,
    created_at: at,
    comments: [comment],
  };
  team.threads.push(thread);
  return ok({ data: renderThread(team, thread) }, 201);
};

export const findThread: Handler = ({ team, query }) => {
  const thread = team.threads.find(
    (t) => t.entity_type === query.get('entity_type') && t.entity_id === query.get('entity_id'),
  );
  // The lookup's shape is not shown; an item without a thread answers { data: null }.
  return ok({ data: thread ? renderThread(team, thread) : null });
};

export const getThread: Handler = ({ team, params }) => {
  const thread = team.threads.find((t) => t.id === params.id);
  if (!thread) return fail('THREAD_NOT_FOUND', `No thread with id ${params.id}.`, { param: 'id' });
  return ok({ data: renderThread(team, thread) });
};

export const addThreadComment: Handler = ({ team, key, params, body, now, newId }) => {
  const thread = team.threads.find((t) => t.id === params.id);
  if (!thread) return fail('THREAD_NOT_FOUND', `No thread with id ${params.id}.`, { param: 'id' });
  const at = now();
  const comment: CommentRecord = {
    id: newId(idPrefix('ThreadCommentId')),
    content: body.content as string,
    user_id: key.owner_user_id,
    created_at: at,
    updated_at: at,
  };
  thread.comments.push(comment);
  return ok({ data: renderComment(team, comment) }, 201);
};
