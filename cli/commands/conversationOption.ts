import type { Command } from 'commander';

/** `--conversation <id>`, as commander hands it over; absent: the most recent conversation. */
export interface ConversationFlag {
  conversation?: string;
}

/** Adds `--conversation <id>` to a command about one conversation of the folder. */
export function withConversationOption(command: Command): Command {
  return command.option('--conversation <id>', 'the conversation, as `conversations` lists it (default: the most recent)');
}

/** The payload field naming the conversation the flag chose, or nothing for the most recent. */
export function conversationOf({ conversation }: ConversationFlag): { conversationId?: string } {
  return conversation === undefined ? {} : { conversationId: conversation };
}
