/** Which of an account's two worlds a key acts in: test keys' tasks complete on demand, live ones by people. */
export type Mode = 'test' | 'live';
