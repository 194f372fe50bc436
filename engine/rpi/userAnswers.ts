import { z } from 'zod';
import type { Phase, QuestionReply } from '../contract/index.js';
import type { SecretMask } from '../secrets/secretMask.js';
import type { ToolLogRecord } from '../store/toolLog.js';
import { replyText } from '../tools/askUser.js';
import type { UserQuestion } from '../tools/tool.js';

/** Who answers ask_user for a run: the user through the workbench, and the request's earlier calls in the tool log. */
export interface QuestionDesk {
  /** Puts the question to the user and waits (like an approval) for how it was settled. */
  ask(question: UserQuestion & { phase: Phase }, signal: AbortSignal): Promise<QuestionReply>;
  /** The request's ask_user calls in the tool log, its earlier (stopped) runs' included, oldest first. */
  earlier(): Promise<readonly ToolLogRecord[]>;
}

/** One question of the request and what the model was told. */
export interface AnsweredQuestion extends UserQuestion {
  phase: Phase;
  /** The text the model read: the user's answer, or "No answer: …". */
  reply: string;
}

const askedSchema = z.object({ question: z.string(), choices: z.array(z.string()).optional(), default: z.string().optional() });

export const answersHeading = '## Answers from the user';
/** Marks the section as the engine's, so it is replaced, never repeated, when research.md is written again. */
const answersMarker = '<!-- written by the workbench from the questions asked with ask_user -->';

/**
 * The request's questions to the user and their answers. A question asked before — in this run, or in an
 * earlier run of the same request that stopped — is answered from the tool log again instead of asking
 * twice, so a resumed Research does not put the same question to the user.
 */
export class UserAnswers {
  private answered: AnsweredQuestion[] | null = null;

  constructor(private readonly deps: { desk?: QuestionDesk; maskSecrets: SecretMask }) {}

  /** The request's answered questions so far, each once, oldest first. */
  async all(): Promise<readonly AnsweredQuestion[]> {
    this.answered ??= uniqueByQuestion(((await this.deps.desk?.earlier()) ?? []).flatMap(answeredOf));
    return this.answered;
  }

  /** What the model reads for `question`: an earlier answer to the same question, or the user's answer now. */
  async ask(phase: Phase, question: UserQuestion, signal: AbortSignal): Promise<string> {
    const earlier = (await this.all()).find((answered) => sameQuestion(answered.question, question.question));
    if (earlier) return earlier.reply;
    const reply = this.deps.desk ? await this.deps.desk.ask({ ...question, phase }, signal) : ({ outcome: 'no-answer' } as const);
    const text = this.deps.maskSecrets(replyText(reply, question));
    this.answered = [...(await this.all()), { ...question, phase, reply: text }];
    return text;
  }
}

/** The questions and answers as a list for a phase's context or research.md; empty when there are none. */
export function answersText(answers: readonly AnsweredQuestion[]): string {
  return answers
    .map((answered, index) => {
      const offered = [
        ...(answered.choices?.length ? [`choices: ${answered.choices.join(' / ')}`] : []),
        ...(answered.default === undefined ? [] : [`default: ${answered.default}`]),
      ];
      const question = `${answered.question}${offered.length ? ` (${offered.join('; ')})` : ''}`;
      return `${index + 1}. ${indented(`Question (${answered.phase}): ${question}`)}\n   ${indented(`Answer: ${answered.reply}`)}`;
    })
    .join('\n');
}

/** research.md with its "Answers from the user" section written anew at the end (none when there are no answers). */
export function researchWithAnswers(research: string, answers: readonly AnsweredQuestion[]): string {
  const start = research.indexOf(`${answersHeading}\n${answersMarker}`);
  if (start === -1 && answers.length === 0) return research;
  const findings = (start === -1 ? research : research.slice(0, start)).trimEnd();
  if (answers.length === 0) return `${findings}\n`;
  return `${findings}\n\n${answersHeading}\n${answersMarker}\n\n${answersText(answers)}\n`;
}

function answeredOf(record: ToolLogRecord): AnsweredQuestion[] {
  const asked = askedSchema.safeParse(record.args);
  if (!record.ok || !asked.success) return [];
  const { question, choices, default: suggested } = asked.data;
  return [{ phase: record.phase, question, ...(choices ? { choices } : {}), ...(suggested === undefined ? {} : { default: suggested }), reply: record.result }];
}

function uniqueByQuestion(answers: readonly AnsweredQuestion[]): AnsweredQuestion[] {
  return answers.filter((answered, index) => answers.findIndex((other) => sameQuestion(other.question, answered.question)) === index);
}

function sameQuestion(a: string, b: string): boolean {
  const normal = (text: string) => text.trim().replace(/\s+/g, ' ').toLowerCase();
  return normal(a) === normal(b);
}

/** Later lines of a multi-line text indented under its list item. */
function indented(text: string): string {
  return text.replace(/\n/g, '\n   ');
}
