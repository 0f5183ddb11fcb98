/** Takes stored responses back to before their conversation key column; both SQL stores run it. */
export const DROP_CONVERSATION_KEY_COLUMN = 'ALTER TABLE responses DROP COLUMN conversation_key; ';
